package dev.ratelimit.console.rules;

import dev.ratelimit.apiindex.ApiIndexRepository;
import dev.ratelimit.interceptor.config.RuleSnapshot;
import dev.ratelimit.interceptor.config.RulesInForce;
import dev.ratelimit.interceptor.config.SysConfigRepository;

/**
 * The rules of every module that reported an API index, as they are in force now: the index's endpoints
 * under the config hash, worked out by the limiter's own {@link RulesInForce}, so that every page shows
 * exactly what the instances apply. Read anew for each page.
 */
public class ConsoleRules {

    private final ApiIndexRepository index;
    private final SysConfigRepository config;

    public ConsoleRules(ApiIndexRepository index, SysConfigRepository config) {
        this.index = index;
        this.config = config;
    }

    /** @throws RuntimeException when Redis does not answer */
    public RulesInForce now() {
        return RulesInForce.of(index.endpoints(), index.modules(), config.snapshot());
    }

    /**
     * The config hash as the limiter reads it, without the endpoints: for what is not per endpoint (the deny list).
     *
     * @throws RuntimeException when Redis does not answer
     */
    public RuleSnapshot snapshot() {
        return config.snapshot();
    }
}
