package dev.ratelimit.bench.report;

import dev.ratelimit.bench.latency.DecisionLatency;
import dev.ratelimit.bench.local.LocalDecisionBenchmark;
import dev.ratelimit.bench.local.LocalMemoryPerKey;
import dev.ratelimit.bench.redis.RedisContender;
import dev.ratelimit.bench.redis.RedisDecisionBenchmark;
import dev.ratelimit.bench.redis.RedisMemoryPerKey;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

/**
 * Runs the benchmarks and writes their tables as Markdown, one file per part, into the output folder
 * (and to the console).
 *
 * <pre>
 * BenchmarkRun [redis] [hot] [latency] [local] [memory] [ratio] [--quick] [--out DIR]
 * </pre>
 * With no part named, the first five run; {@code ratio} is the short check of {@link RatioCheck}, run on its
 * own. {@code --quick} shortens every measurement, for trying the setup.
 */
public final class BenchmarkRun {

    static final List<Integer> REDIS_THREADS = List.of(1, 8, 64);
    static final List<Integer> LOCAL_THREADS = List.of(1, 2);
    private static final int MEMORY_COUNTERS = 100_000;

    private BenchmarkRun() {
    }

    public static void main(String[] args) throws Exception {
        List<String> arguments = new ArrayList<>(Arrays.asList(args));
        boolean quick = arguments.remove("--quick");
        Path out = Path.of("target", "bench-results");
        int outIndex = arguments.indexOf("--out");
        if (outIndex >= 0) {
            out = Path.of(arguments.get(outIndex + 1));
            arguments.subList(outIndex, outIndex + 2).clear();
        }
        List<String> parts = arguments.isEmpty() ? List.of("redis", "hot", "latency", "local", "memory") : arguments;
        Files.createDirectories(out);
        JmhMatrix.Timing timing = quick ? JmhMatrix.Timing.QUICK : JmhMatrix.Timing.FULL;
        for (String part : parts) {
            String report = switch (part) {
                case "redis" -> redis(out, timing, quick);
                case "hot" -> HotKeyRun.measure(out, quick);
                case "local" -> local(out, timing);
                case "latency" -> DecisionLatency.measure(quick ? 3 : 20);
                case "memory" -> memory(quick ? 10_000 : MEMORY_COUNTERS);
                case "ratio" -> RatioCheck.measure(out, quick);
                default -> throw new IllegalArgumentException("Unknown part " + part
                        + "; expected redis, hot, latency, local, memory or ratio");
            };
            Files.writeString(out.resolve(part + ".md"), report);
            System.out.println(report);
        }
    }

    private static String redis(Path out, JmhMatrix.Timing timing, boolean quick) throws Exception {
        List<Measurement> ceiling = RedisCeiling.measure(REDIS_THREADS, quick ? 20_000 : 300_000);
        JmhMatrix matrix = new JmhMatrix(RedisDecisionBenchmark.class, out.resolve("jmh-redis"), timing);
        List<Measurement> decisions = new ArrayList<>(matrix.run(REDIS_THREADS, "HOT,SPREAD", "ALLOW", List.of()));
        // Rejections for the single-limit contenders; the diagnostic transports add nothing there.
        List<String> rejecting = Stream.of(RedisContender.values()).filter(RedisContender::decidesOneLimit)
                .map(Enum::name).toList();
        decisions.addAll(matrix.run(REDIS_THREADS, "HOT", "REJECT", rejecting));
        return new RedisReport(ceiling, decisions).render();
    }

    private static String local(Path out, JmhMatrix.Timing timing) throws Exception {
        JmhMatrix matrix = new JmhMatrix(LocalDecisionBenchmark.class, out.resolve("jmh-local"), timing);
        List<Measurement> decisions = new ArrayList<>(matrix.run(LOCAL_THREADS, "HOT,SPREAD", "ALLOW", List.of()));
        decisions.addAll(matrix.run(LOCAL_THREADS, "HOT", "REJECT", List.of()));
        return new LocalReport(decisions).render();
    }

    private static String memory(int counters) {
        return "## Memory per counter, " + MarkdownTable.count(counters) + " live counters\n\n### Redis\n\n"
                + RedisMemoryPerKey.measure(counters) + "\n### In process (JOL)\n\n"
                + LocalMemoryPerKey.measure(counters);
    }
}
