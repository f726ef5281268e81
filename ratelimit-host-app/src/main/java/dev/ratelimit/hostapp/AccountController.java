package dev.ratelimit.hostapp;

import java.security.Principal;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;

@Controller
class AccountController {

    @GetMapping("/account")
    String account(Principal principal, Model model) {
        model.addAttribute("name", principal.getName());
        return "account";
    }
}
