package dev.ratelimit.interceptor.metrics;

import dev.ratelimit.interceptor.rule.RuleId;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.LongAdder;

/** Outcomes since the start, over all rules: always kept (a few adders), for the actuator endpoint. */
public class OutcomeCounts implements RateLimitMetrics {

    private final Map<Outcome, LongAdder> counts = new EnumMap<>(Outcome.class);

    public OutcomeCounts() {
        for (Outcome outcome : Outcome.values()) {
            counts.put(outcome, new LongAdder());
        }
    }

    @Override
    public void outcome(RuleId rule, Outcome outcome) {
        Objects.requireNonNull(counts.get(outcome), "every outcome has its adder").increment();
    }

    @Override
    public void decided(long nanos) {
        // the endpoint reports counts only; timings are for Micrometer
    }

    /** Each outcome's count so far, by its tag. */
    public Map<String, Long> snapshot() {
        Map<String, Long> snapshot = new LinkedHashMap<>();
        counts.forEach((outcome, count) -> snapshot.put(outcome.tag(), count.sum()));
        return snapshot;
    }
}
