package dev.ratelimit.interceptor.metrics;

import dev.ratelimit.interceptor.log.DroppedInterceptions;
import dev.ratelimit.interceptor.rule.RuleId;
import dev.ratelimit.interceptor.internal.store.resilience.CircuitBreaker;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * The limiter's meters in Micrometer:
 * <ul>
 *   <li>{@code ratelimit.requests} (counter), tagged {@code module}, {@code rule} and {@code outcome}: rules are
 *       declared or configured, so the tags stay few; never tagged by user, address or URI;</li>
 *   <li>{@code ratelimit.decision} (timer): one store call per limited request;</li>
 *   <li>{@code ratelimit.circuit.open} (gauge): 1 while decisions are off Redis, else 0;</li>
 *   <li>{@code ratelimit.log.dropped} (counter): interceptions the log writer gave up, when it counts them.</li>
 * </ul>
 */
public class MicrometerRateLimitMetrics implements RateLimitMetrics {

    static final String REQUESTS = "ratelimit.requests";

    private final MeterRegistry registry;
    private final Timer decisions;
    private final OutcomeTable<Counter> counters;

    /**
     * @param circuit the Redis circuit, or {@code null} when counters are not in Redis
     * @param log     the interception log when it counts what it drops, else {@code null}
     */
    public MicrometerRateLimitMetrics(MeterRegistry registry, @Nullable CircuitBreaker circuit,
                                      @Nullable DroppedInterceptions log) {
        this.registry = registry;
        this.counters = new OutcomeTable<>(this::counter);
        // Histogram buckets from 100 µs to 2 s (67 series in Prometheus), so a dashboard can show percentiles
        // aggregated over instances; one timer per app, so the cost is bounded.
        this.decisions = Timer.builder("ratelimit.decision")
                .description("Time for the store to decide the limits of one request")
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofNanos(100_000))
                .maximumExpectedValue(Duration.ofSeconds(2))
                .register(registry);
        if (circuit != null) {
            Gauge.builder("ratelimit.circuit.open", circuit, c -> c.isClosed() ? 0 : 1)
                    .description("1 while Redis is not asked and the failure policy decides, else 0")
                    .register(registry);
        }
        if (log != null) {
            FunctionCounter.builder("ratelimit.log.dropped", log, DroppedInterceptions::droppedInterceptions)
                    .description("Interceptions the log writer gave up")
                    .register(registry);
        }
    }

    @Override
    public void outcome(RuleId rule, Outcome outcome) {
        counters.get(rule, outcome).increment();
    }

    @Override
    public void decided(long nanos) {
        decisions.record(nanos, TimeUnit.NANOSECONDS);
    }

    private Counter counter(RuleId rule, Outcome outcome) {
        return Counter.builder(REQUESTS)
                .description("Limited requests by rule and outcome")
                .tag("module", rule.module())
                .tag("rule", rule.rule())
                .tag("outcome", outcome.tag())
                .register(registry);
    }
}
