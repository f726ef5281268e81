package dev.ratelimit.interceptor.deploy.v2;

import dev.ratelimit.interceptor.RateLimit;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** Version 2 of an app whose deploys change a limit: rule {@code OrderController.create}, 10 per 30 s. */
@SpringBootApplication
public class OrdersV2 {

    public static final long COUNT = 10;
    public static final long INTERVAL = 30;

    @RestController
    public static class OrderController {

        @RateLimit(count = COUNT, interval = INTERVAL)
        @GetMapping("/orders")
        public String create() {
            return "ok";
        }
    }
}
