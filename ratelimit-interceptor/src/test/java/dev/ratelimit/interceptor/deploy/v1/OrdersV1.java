package dev.ratelimit.interceptor.deploy.v1;

import dev.ratelimit.interceptor.RateLimit;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** Version 1 of an app whose deploys change a limit: rule {@code OrderController.create}, 5 per 60 s. */
@SpringBootApplication
public class OrdersV1 {

    public static final long COUNT = 5;
    public static final long INTERVAL = 60;

    @RestController
    public static class OrderController {

        @RateLimit(count = COUNT, interval = INTERVAL)
        @GetMapping("/orders")
        public String create() {
            return "ok";
        }
    }
}
