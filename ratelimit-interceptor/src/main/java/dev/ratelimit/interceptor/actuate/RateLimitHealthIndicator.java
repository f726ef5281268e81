package dev.ratelimit.interceptor.actuate;

import dev.ratelimit.interceptor.store.resilience.CircuitBreaker;
import dev.ratelimit.interceptor.store.resilience.FailurePolicy;
import java.util.Locale;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * Reports the Redis circuit as health component {@code rateLimit}: always UP, with the circuit's state
 * in the details. An open circuit means the limiter decides by its failure policy, which keeps the app
 * serving: reporting DOWN would make a load balancer or Kubernetes take every instance out at once
 * during a Redis outage, turning the limiter into the outage. Alert on the details or on the
 * {@code ratelimit.circuit.open} gauge instead.
 */
public class RateLimitHealthIndicator implements HealthIndicator {

    private final CircuitBreaker circuit;
    private final FailurePolicy policy;

    public RateLimitHealthIndicator(CircuitBreaker circuit, FailurePolicy policy) {
        this.circuit = circuit;
        this.policy = policy;
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
        return health.build();
    }
}
