package dev.ratelimit.interceptor.pages;

import dev.ratelimit.interceptor.RateLimit;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.GetMapping;

@Controller
public class ShopController {

    /** One visit per minute per user. */
    @RateLimit(count = 1, interval = 60)
    @GetMapping("/basket")
    public String basket() {
        return "basket";
    }

    /** An order weighs its number of items ({@code ?items=a,b,c} weighs 3), 2 per minute per user. */
    @RateLimit(count = 2, interval = 60, costExpression = "#request.getParameter('items').split(',').length")
    @GetMapping("/order")
    public String order() {
        return "basket";
    }
}
