package dev.ratelimit.hostapp;

import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;

@Controller
class HomeController {

    private final Catalog catalog;

    HomeController(Catalog catalog) {
        this.catalog = catalog;
    }

    @GetMapping("/")
    String home(Model model) {
        model.addAttribute("count", catalog.all().size());
        return "home";
    }

    @GetMapping("/login")
    String login() {
        return "login";
    }
}
