package dev.ratelimit.interceptor.badkey;

import dev.ratelimit.interceptor.Dimension;
import dev.ratelimit.interceptor.RateLimit;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** An app whose one limit has a key expression that does not parse: it must not start. */
@SpringBootApplication
public class BadKeyApplication {

    @RestController
    public static class BadKeyController {

        @RateLimit(dimension = Dimension.CUSTOM, key = "#headers['X-Tenant'")
        @GetMapping("/bad")
        public String bad() {
            return "never";
        }
    }
}
