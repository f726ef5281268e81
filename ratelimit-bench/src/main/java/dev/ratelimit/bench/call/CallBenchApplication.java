package dev.ratelimit.bench.call;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/** The app a {@link BeanMethodLimiter} runs: the starter with its shipped settings and one limited bean. */
@SpringBootApplication
public class CallBenchApplication {
}
