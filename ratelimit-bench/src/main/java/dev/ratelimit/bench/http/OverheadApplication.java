package dev.ratelimit.bench.http;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The app of the HTTP overhead benchmark ({@code http-overhead.sh}): the same code runs with the starter
 * on the classpath and without it. Without it the {@code @RateLimit} annotations are simply absent at run
 * time (the JVM drops annotations whose type it cannot load), which is an app that never added the starter.
 */
@SpringBootApplication
public class OverheadApplication {

    public static void main(String[] args) {
        SpringApplication.run(OverheadApplication.class, args);
    }
}
