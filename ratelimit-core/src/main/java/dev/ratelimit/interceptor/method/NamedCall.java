package dev.ratelimit.interceptor.method;

import dev.ratelimit.interceptor.identity.CounterIdentity;
import dev.ratelimit.interceptor.identity.CurrentClient;
import dev.ratelimit.interceptor.rule.Endpoint;
import dev.ratelimit.interceptor.rule.LimitDefinition;
import org.jspecify.annotations.Nullable;

/**
 * A call code counts through {@code RateLimitService}, naming its identity: what the counter key names,
 * whatever the rule's dimension (a user code for a {@code USER} rule, a partner for a {@code CUSTOM} one);
 * everybody together for a {@code METHOD} or {@code GLOBAL} rule. It takes the rule's fixed cost (a cost
 * expression reads a request or a call, which there is none of: 1) and has no plan.
 */
final class NamedCall extends Call {

    private final String identity;

    NamedCall(Endpoint endpoint, String identity, CurrentClient clients) {
        super(endpoint.handler(), clients);
        this.identity = identity;
    }

    @Override
    public @Nullable String identity(LimitDefinition limit) {
        return CounterIdentity.named(limit, identity);
    }

    @Override
    public long cost(LimitDefinition limit) {
        return limit.cost().fixed();
    }

    @Override
    public @Nullable String plan(LimitDefinition limit) {
        return null;
    }
}
