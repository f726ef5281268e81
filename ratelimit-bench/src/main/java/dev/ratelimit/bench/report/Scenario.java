package dev.ratelimit.bench.report;

import java.util.List;

/** Which counters and which limit a table of decisions is about. */
record Scenario(String keys, String limit, String title) {

    static final List<Scenario> ALL = List.of(
            new Scenario("HOT", "ALLOW", "One hot key, limit never reached"),
            new Scenario("SPREAD", "ALLOW", "10,000 keys spread evenly, limit never reached"),
            new Scenario("HOT", "REJECT", "One hot key, 1,000 per second: nearly every request rejected"));

    /** The measurement of {@code contender} at {@code threads} in this scenario, if it ran. */
    Measurement find(List<Measurement> measurements, String contender, int threads) {
        return measurements.stream()
                .filter(m -> m.contender().equals(contender) && m.isIn(keys, limit, threads))
                .findFirst()
                .orElse(null);
    }

    /** {@code ours} decisions per second over {@code other}'s, NaN if either did not run. */
    double ratio(List<Measurement> measurements, String ours, String other, int threads) {
        Measurement a = find(measurements, ours, threads);
        Measurement b = find(measurements, other, threads);
        return a == null || b == null ? Double.NaN : a.perSecond() / b.perSecond();
    }
}
