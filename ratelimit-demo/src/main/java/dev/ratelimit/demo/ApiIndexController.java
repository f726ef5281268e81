package dev.ratelimit.demo;

import dev.ratelimit.apiindex.ApiIndexEntry;
import dev.ratelimit.apiindex.ApiIndexRepository;
import dev.ratelimit.interceptor.rule.RuleNaming;
import java.util.Collections;
import java.util.SortedMap;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Shows the demo's API index as Redis holds it: the endpoints the console offers for dynamic rules. Empty
 * when the counters are in the process ({@code ratelimit.store=memory}), which keeps no index in any Redis.
 */
@RestController
public class ApiIndexController {

    private final ObjectProvider<ApiIndexRepository> index;
    private final RuleNaming naming;

    public ApiIndexController(ObjectProvider<ApiIndexRepository> index, RuleNaming naming) {
        this.index = index;
        this.naming = naming;
    }

    @GetMapping("/api/index")
    public SortedMap<String, ApiIndexEntry> index() {
        ApiIndexRepository repository = index.getIfAvailable();
        return repository == null ? Collections.emptySortedMap() : repository.entries(naming.module());
    }
}
