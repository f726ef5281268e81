package dev.ratelimit.interceptor.actuate;

import dev.ratelimit.interceptor.config.EvictionPolicy;
import dev.ratelimit.interceptor.internal.store.resilience.CircuitBreaker;
import dev.ratelimit.interceptor.store.FailurePolicy;
import java.util.Locale;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * Reports the Redis circuit as health component {@code rateLimit}: always UP, with the circuit's state
 * and Redis' {@code maxmemory-policy} (whether a full Redis may evict operators' rules) in the details. An open circuit means the limiter decides by its failure policy, which keeps the app
 * serving: reporting DOWN would make a load balancer or Kubernetes take every instance out at once
 * during a Redis outage, turning the limiter into the outage. Alert on the details or on the
 * {@code ratelimit.circuit.open} gauge instead.
 */
public class RateLimitHealthIndicator implements HealthIndicator {

    private final CircuitBreaker circuit;
    private final FailurePolicy policy;
    private final @Nullable EvictionPolicy eviction;

    /** @param eviction {@code null} without a config hash in Redis */
    public RateLimitHealthIndicator(CircuitBreaker circuit, FailurePolicy policy, @Nullable EvictionPolicy eviction) {
        this.circuit = circuit;
        this.policy = policy;
        this.eviction = eviction;
    }

    @Override
    public Health health() {
        CircuitBreaker.Status status = circuit.status();
        Health.Builder health = Health.up()
                .withDetail("circuit", status.state().name().toLowerCase(Locale.ROOT))
                .withDetail("since", status.since().toString())
                .withDetail("failurePolicy", policy.name().toLowerCase(Locale.ROOT));
        if (status.lastFailure() != null) {
            health.withDetail("lastFailure", status.lastFailure());
        }
        if (eviction != null) {
            EvictionPolicy.Reading reading = eviction.current();
            health.withDetail("maxmemoryPolicy", reading.policy() != null ? reading.policy()
                    : "unknown: " + reading.problem());
            health.withDetail("configEvictable", reading.evictsConfig());
        }
        return health.build();
    }
}
