package dev.ratelimit.demo;

import dev.ratelimit.apiindex.ApiIndexEntry;
import dev.ratelimit.apiindex.ApiIndexRepository;
import dev.ratelimit.interceptor.rule.RuleNaming;
import java.util.SortedMap;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** Shows the demo's API index as Redis holds it: the endpoints the console offers for dynamic rules. */
@RestController
public class ApiIndexController {

    private final ApiIndexRepository index;
    private final RuleNaming naming;

    public ApiIndexController(ApiIndexRepository index, RuleNaming naming) {
        this.index = index;
        this.naming = naming;
    }

    @GetMapping("/api/index")
    public SortedMap<String, ApiIndexEntry> index() {
        return index.entries(naming.module());
    }
}
