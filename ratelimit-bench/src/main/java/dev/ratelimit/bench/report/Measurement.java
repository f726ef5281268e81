package dev.ratelimit.bench.report;

/**
 * One contender in one setting of a run.
 *
 * @param perSecond  decisions per second, all threads together
 * @param p50Micros  median latency of one decision, or NaN where only throughput was measured
 * @param p99Micros  99th percentile latency, or NaN
 */
public record Measurement(String contender, String keys, String limit, int threads, double perSecond,
                          double p50Micros, double p99Micros) {

    boolean isIn(String keys, String limit, int threads) {
        return this.keys.equals(keys) && this.limit.equals(limit) && this.threads == threads;
    }
}
