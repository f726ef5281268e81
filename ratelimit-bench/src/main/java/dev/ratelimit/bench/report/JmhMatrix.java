package dev.ratelimit.bench.report;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.util.Statistics;

/**
 * Runs one JMH benchmark class for several thread counts and turns the results into measurements.
 * Every contender runs in a fork of its own; JMH's own report goes to a log file.
 */
final class JmhMatrix {

    private final Class<?> benchmark;
    private final Path log;
    private final Timing timing;

    JmhMatrix(Class<?> benchmark, Path log, Timing timing) {
        this.benchmark = benchmark;
        this.log = log;
        this.timing = timing;
    }

    /** How long each contender is warmed up and measured. */
    record Timing(int warmupIterations, int measurementIterations, TimeValue iteration) {

        static final Timing FULL = new Timing(2, 3, TimeValue.seconds(2));
        static final Timing QUICK = new Timing(1, 1, TimeValue.seconds(1));
    }

    /**
     * Runs the {@code contenders} (all when empty) for each thread count with the given {@code keys} and
     * {@code limit} params.
     */
    List<Measurement> run(List<Integer> threadCounts, String keys, String limit, List<String> contenders)
            throws RunnerException {
        List<Measurement> measurements = new ArrayList<>();
        for (int threads : threadCounts) {
            ChainedOptionsBuilder options = new OptionsBuilder()
                    .include("^" + benchmark.getName().replace(".", "\\.") + "\\.")
                    .param("keys", keys.split(","))
                    .param("limit", limit)
                    .threads(threads)
                    .forks(1)
                    .warmupIterations(timing.warmupIterations())
                    .warmupTime(timing.iteration())
                    .measurementIterations(timing.measurementIterations())
                    .measurementTime(timing.iteration())
                    .shouldFailOnError(true)
                    .output(log.resolveSibling(log.getFileName() + "-" + keys.replace(',', '-') + "-" + limit + "-t"
                            + threads + ".log").toString());
            if (!contenders.isEmpty()) {
                options.param("contender", contenders.toArray(String[]::new));
            }
            measurements.addAll(measurements(new Runner(options.build()).run()));
        }
        return measurements;
    }

    private static List<Measurement> measurements(Collection<RunResult> results) {
        List<Measurement> measurements = new ArrayList<>();
        for (RunResult result : results) {
            BenchmarkParams params = result.getParams();
            Statistics statistics = result.getPrimaryResult().getStatistics();
            double perSecond;
            double p50 = Double.NaN;
            double p99 = Double.NaN;
            switch (params.getMode()) {
                case SampleTime -> {
                    // Closed-loop threads: each has one request in flight, so by Little's law the rate is
                    // threads / mean latency.
                    double micros = params.getTimeUnit().toNanos(1) / 1_000.0;
                    perSecond = params.getThreads() * 1_000_000.0 / (statistics.getMean() * micros);
                    p50 = statistics.getPercentile(50) * micros;
                    p99 = statistics.getPercentile(99) * micros;
                }
                case Throughput -> perSecond = statistics.getMean()
                        * params.getTimeUnit().convert(1, TimeUnit.SECONDS);
                default -> throw new IllegalStateException("Unexpected mode " + params.getMode());
            }
            measurements.add(new Measurement(params.getParam("contender"), params.getParam("keys"),
                    params.getParam("limit"), params.getThreads(), perSecond, p50, p99));
        }
        return measurements;
    }
}
