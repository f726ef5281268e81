package dev.ratelimit.bench.report;

import dev.ratelimit.bench.BenchLimit;
import dev.ratelimit.bench.hot.HotKeyInstance;
import dev.ratelimit.bench.redis.FixedWindowScript;
import dev.ratelimit.interceptor.testsupport.RedisServerProcess;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * One hot counter with and without permits in batches ({@code ratelimit.hot-keys.*}), side by side in one run:
 * two app instances, each a JVM of its own ({@link HotKeyInstance}) with its own connection to one
 * {@code redis-server}, {@value #THREADS_PER_INSTANCE} client threads each, on one GLOBAL-like counter (a fixed
 * window of 10⁹ an hour, never reached) and on {@value HotKeyInstance#USERS} per-user counters of the same limit,
 * each far below the hot-key threshold; beside them {@code redis-benchmark} from as many connections as there are
 * client threads, sending {@code EVALSHA} of a script that only returns (the ceiling of a single key: a counter
 * on one key can never be decided faster than Redis runs one script on it) and of our fixed-window script on the
 * hot key. After a warm-up pass, every variant runs once per round, in turn, so a change in the machine hits all
 * alike; the table gives each variant's median over the rounds. Redis calls come from {@code INFO commandstats}
 * around each run (the permits given back after it included), CPU from {@code INFO cpu} and each JVM's own count.
 *
 * <p>Durations: system properties {@code hot.warmup}, {@code hot.seconds} (per run), {@code hot.rounds}.
 */
final class HotKeyRun {

    static final int INSTANCES = 2;
    static final int THREADS_PER_INSTANCE = 32;
    static final int CLIENTS = INSTANCES * THREADS_PER_INSTANCE;
    private static final String CEILING = "redis-benchmark: EVALSHA of return 1";
    private static final String OUR_SCRIPT = "redis-benchmark: EVALSHA of our fixed-window script, one key";
    private static final String USERS = MarkdownTable.count(HotKeyInstance.USERS) + " users";

    /** A variant: what runs, and on which instances. */
    private record Variant(String name, String stack, String counters) {
        boolean isBenchmark() {
            return stack == null;
        }
    }

    private static final List<Variant> VARIANTS = List.of(
            new Variant(CEILING, null, null),
            new Variant(OUR_SCRIPT, null, null),
            new Variant("one hot key, batched", "batched", "hot"),
            new Variant("one hot key, unbatched", "unbatched", "hot"),
            new Variant(USERS + ", batched", "batched", "users"),
            new Variant(USERS + ", unbatched", "unbatched", "users"));

    /** What one run of one variant measured. */
    private record Result(double perSecond, double scriptCalls, double commands, double redisCpuNanos,
                          double clientCpuNanos, double decisions, double fromBatches, double batchesTaken,
                          double permitsTaken, double permitsGivenBack, double notDecided, double admitted) {

        double scriptCallsPerDecision() {
            return scriptCalls / decisions;
        }
    }

    private HotKeyRun() {
    }

    static String measure(Path out, boolean quick) throws Exception {
        double warmup = Double.parseDouble(System.getProperty("hot.warmup", quick ? "3" : "15"));
        double seconds = Double.parseDouble(System.getProperty("hot.seconds", quick ? "3" : "10"));
        int rounds = Integer.parseInt(System.getProperty("hot.rounds", quick ? "1" : "3"));
        Path logs = out.resolve("hot");
        Files.createDirectories(logs);
        Map<String, List<Result>> results = new LinkedHashMap<>();
        try (RedisServerProcess redis = RedisServerProcess.start()) {
            String trivial = redis.commands().scriptLoad("return 1");
            String ours = redis.commands().scriptLoad(new FixedWindowScript(BenchLimit.ALLOW, 0).text());
            Map<String, List<Instance>> stacks = new HashMap<>();
            try {
                for (String stack : List.of("batched", "unbatched")) {
                    List<Instance> instances = new ArrayList<>();
                    for (int i = 0; i < INSTANCES; i++) {
                        instances.add(Instance.start(redis.port(), stack, logs.resolve("instance-" + stack + "-" + i + ".log")));
                    }
                    stacks.put(stack, instances);
                }
                for (List<Instance> instances : stacks.values()) {
                    for (Instance instance : instances) {
                        instance.await("ready", 60);
                    }
                }
                Runner runner = new Runner(redis, stacks, trivial, ours);
                System.err.printf("hot: warm-up, %.0f s per variant%n", warmup);
                double benchmarkRate = 0;
                for (Variant variant : VARIANTS) {
                    Result result = runner.run(variant, warmup, 0);
                    if (variant.isBenchmark()) {
                        benchmarkRate = Math.max(benchmarkRate, result.perSecond());
                    }
                }
                // redis-benchmark takes a number of requests, not a time: about the seconds of a run at its warm-up rate.
                long benchmarkRequests = Math.max(10_000, Math.round(benchmarkRate * seconds));
                for (int round = 1; round <= rounds; round++) {
                    System.err.printf("hot: round %d of %d%n", round, rounds);
                    for (Variant variant : VARIANTS) {
                        results.computeIfAbsent(variant.name(), name -> new ArrayList<>())
                                .add(runner.run(variant, seconds, benchmarkRequests));
                    }
                }
            } finally {
                for (List<Instance> instances : stacks.values()) {
                    instances.forEach(Instance::close);
                }
            }
        }
        return render(results, warmup, seconds, rounds);
    }

    /** Runs one variant and reads Redis around it. */
    private record Runner(RedisServerProcess redis, Map<String, List<Instance>> stacks, String trivial, String ours) {

        Result run(Variant variant, double seconds, long benchmarkRequests) throws InterruptedException {
            long requests = benchmarkRequests > 0 ? benchmarkRequests : 200_000;
            long scriptsBefore = redis.calls("evalsha");
            long commandsBefore = commands(redis);
            double cpuBefore = redisCpuSeconds(redis);
            double perSecond;
            double decisions;
            double clientCpu = 0;
            Map<String, Double> sums = new HashMap<>();
            if (variant.isBenchmark()) {
                String[] command = variant.name().equals(CEILING)
                        ? new String[] {"evalsha", trivial, "0"}
                        : new String[] {"evalsha", ours, "1", "ratelimit:counter:bench:redis-benchmark:_global:GLOBAL",
                                "1000000000", "3600000"};
                perSecond = RedisCeiling.run(redis.port(), CLIENTS, (int) requests, variant.name(), command).perSecond();
                decisions = requests;
            } else {
                List<Instance> instances = stacks.get(variant.stack());
                for (Instance instance : instances) {
                    instance.send(String.format(Locale.ROOT, "run %s %.3f", variant.counters(), seconds));
                }
                perSecond = 0;
                decisions = 0;
                for (Instance instance : instances) {
                    Map<String, Double> done = instance.done(seconds + 60);
                    perSecond += done.get("decisions") / done.get("seconds");
                    decisions += done.get("decisions");
                    clientCpu += done.get("cpuNanos");
                    done.forEach((figure, value) -> sums.merge(figure, value, Double::sum));
                }
            }
            double scripts = redis.calls("evalsha") - scriptsBefore;
            // Our own INFO and the two commandstats readings around the run are not the run's.
            double commands = commands(redis) - commandsBefore - 3;
            double redisCpu = (redisCpuSeconds(redis) - cpuBefore) * 1e9;
            return new Result(perSecond, scripts, commands, redisCpu, clientCpu, decisions,
                    sums.getOrDefault("decidedFromBatches", 0.0), sums.getOrDefault("batchesTaken", 0.0),
                    sums.getOrDefault("permitsTaken", 0.0), sums.getOrDefault("permitsGivenBack", 0.0),
                    sums.getOrDefault("notDecided", 0.0), variant.isBenchmark() ? decisions : sums.get("admitted"));
        }

        private static long commands(RedisServerProcess redis) {
            return redis.commands().info("commandstats").lines().filter(line -> line.startsWith("cmdstat_"))
                    .mapToLong(line -> Long.parseLong(line.substring(line.indexOf("calls=") + 6, line.indexOf(','))))
                    .sum();
        }

        private static double redisCpuSeconds(RedisServerProcess redis) {
            return redis.commands().info("cpu").lines()
                    .filter(line -> line.startsWith("used_cpu_user:") || line.startsWith("used_cpu_sys:"))
                    .mapToDouble(line -> Double.parseDouble(line.substring(line.indexOf(':') + 1).trim())).sum();
        }
    }

    /** One {@link HotKeyInstance} process, driven through its standard input and output. */
    private static final class Instance implements AutoCloseable {

        private final Process process;
        private final PrintWriter commands;
        private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();

        private Instance(Process process, Path log) {
            this.process = process;
            this.commands = new PrintWriter(process.getOutputStream(), true, StandardCharsets.UTF_8);
            Thread reader = new Thread(() -> {
                try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
                        StandardCharsets.UTF_8));
                     Writer other = Files.newBufferedWriter(log, StandardOpenOption.CREATE, StandardOpenOption.APPEND)) {
                    for (String line = in.readLine(); line != null; line = in.readLine()) {
                        if (line.startsWith(HotKeyInstance.PREFIX)) {
                            lines.add(line.substring(HotKeyInstance.PREFIX.length()));
                        } else {
                            other.write(line + "\n");
                            other.flush();
                        }
                    }
                } catch (IOException e) {
                    lines.add("failed " + e);
                }
                lines.add("exited");
            }, "hot-key-output");
            reader.setDaemon(true);
            reader.start();
        }

        static Instance start(int redisPort, String stack, Path log) throws IOException {
            List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xms512m", "-Xmx512m", "-cp", System.getProperty("java.class.path"),
                    HotKeyInstance.class.getName(), Integer.toString(redisPort), stack,
                    Integer.toString(THREADS_PER_INSTANCE), Integer.toString(INSTANCES));
            Files.deleteIfExists(log);
            Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .start();
            return new Instance(process, log);
        }

        void send(String command) {
            commands.println(command);
        }

        String await(String expected, double seconds) throws InterruptedException {
            String line = lines.poll((long) (seconds * 1000), TimeUnit.MILLISECONDS);
            if (line == null || !line.startsWith(expected)) {
                throw new IllegalStateException("a hot-key instance said " + line + " instead of " + expected
                        + " (see target/bench-results/hot/)");
            }
            return line;
        }

        /** The figures of a {@code done} line. */
        Map<String, Double> done(double seconds) throws InterruptedException {
            Map<String, Double> figures = new HashMap<>();
            for (String pair : await("done", seconds).substring("done ".length()).split(" ")) {
                int equals = pair.indexOf('=');
                figures.put(pair.substring(0, equals), Double.parseDouble(pair.substring(equals + 1)));
            }
            return figures;
        }

        @Override
        public void close() {
            try {
                send("exit");
                if (!process.waitFor(20, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                process.destroyForcibly();
            } catch (RuntimeException e) {
                process.destroyForcibly();
                throw new UncheckedIOException(new IOException("cannot stop a hot-key instance", e));
            }
        }
    }

    private static double median(List<Result> results, ToDoubleFunction<Result> figure) {
        double[] values = results.stream().mapToDouble(figure).sorted().toArray();
        return values[(values.length - 1) / 2];
    }

    private static String render(Map<String, List<Result>> results, double warmup, double seconds, int rounds) {
        double ceiling = median(results.get(CEILING), Result::perSecond);
        MarkdownTable table = new MarkdownTable("variant", "decisions/s", "÷ EVALSHA return 1", "EVALSHA per decision",
                "Redis commands per decision", "decided without Redis", "Redis CPU µs/decision",
                "instances' CPU µs/decision", "not decided (all rounds)");
        for (Map.Entry<String, List<Result>> entry : results.entrySet()) {
            List<Result> runs = entry.getValue();
            boolean benchmark = entry.getKey().startsWith("redis-benchmark");
            double perSecond = median(runs, Result::perSecond);
            table.row(entry.getKey(), MarkdownTable.count(perSecond), MarkdownTable.ratio(perSecond / ceiling),
                    String.format(Locale.ROOT, "%.4f", median(runs, Result::scriptCallsPerDecision)),
                    String.format(Locale.ROOT, "%.4f", median(runs, result -> result.commands() / result.decisions())),
                    benchmark ? "-" : percent(median(runs, result -> result.fromBatches() / result.decisions())),
                    String.format(Locale.ROOT, "%.2f", median(runs, result -> result.redisCpuNanos() / result.decisions() / 1e3)),
                    benchmark ? "-" : String.format(Locale.ROOT, "%.2f",
                            median(runs, result -> result.clientCpuNanos() / result.decisions() / 1e3)),
                    benchmark ? "-" : MarkdownTable.count(runs.stream().mapToDouble(Result::notDecided).sum()));
        }
        StringBuilder report = new StringBuilder();
        report.append("## One hot key: permits in batches\n\n")
                .append(String.format(Locale.ROOT, "%d instances (a JVM each, its own connection) × %d client threads, "
                        + "one redis-server; redis-benchmark with %d connections. Median of %d rounds of %.0f s after "
                        + "%.0f s of warm-up per variant; a fixed window of 10⁹ per hour, never reached.%n%n",
                        INSTANCES, THREADS_PER_INSTANCE, CLIENTS, rounds, seconds, warmup))
                .append(table).append('\n');

        List<Result> hot = results.get("one hot key, batched");
        List<Result> hotPlain = results.get("one hot key, unbatched");
        List<Result> users = results.get(USERS + ", batched");
        List<Result> usersPlain = results.get(USERS + ", unbatched");
        double hotRatio = median(hot, Result::perSecond) / ceiling;
        double hotCalls = median(hot, Result::scriptCallsPerDecision);
        double usersRatio = median(users, Result::perSecond) / median(usersPlain, Result::perSecond);
        MarkdownTable targets = new MarkdownTable("target", "measured", "verdict");
        targets.row("one hot key, batched: ≥ 3x the single-key EVALSHA ceiling", MarkdownTable.ratio(hotRatio),
                hotRatio >= 3 ? "met" : "**missed**");
        targets.row("one hot key, batched: ≤ 0.1 Redis calls per decision",
                String.format(Locale.ROOT, "%.4f", hotCalls), hotCalls <= 0.1 ? "met" : "**missed**");
        targets.row("one hot key: batched ÷ unbatched", MarkdownTable.ratio(median(hot, Result::perSecond)
                / median(hotPlain, Result::perSecond)), "-");
        targets.row("per-user keys: batched ÷ unbatched, unchanged", MarkdownTable.ratio(usersRatio)
                + String.format(Locale.ROOT, " (EVALSHA per decision %.4f vs %.4f)",
                        median(users, Result::scriptCallsPerDecision), median(usersPlain, Result::scriptCallsPerDecision)),
                Math.abs(usersRatio - 1) <= 0.10 ? "within ±10 %" : "**outside ±10 %**");
        report.append("### Targets\n\n").append(targets).append('\n');

        report.append("### Per round\n\nA batch is sized to about `batch-for` (50 ms) of the instance's traffic on the "
                + "counter, so permits taken ÷ decisions should stay a little above the share decided from batches.\n\n");
        MarkdownTable perRound = new MarkdownTable("variant", "decisions/s per round", "EVALSHA per decision per round",
                "batches taken", "permits taken ÷ decisions", "permits given back", "admitted ÷ decided");
        for (Map.Entry<String, List<Result>> entry : results.entrySet()) {
            perRound.row(entry.getKey(), join(entry.getValue(), result -> MarkdownTable.count(result.perSecond())),
                    join(entry.getValue(), result -> String.format(Locale.ROOT, "%.4f", result.scriptCallsPerDecision())),
                    join(entry.getValue(), result -> MarkdownTable.count(result.batchesTaken())),
                    join(entry.getValue(), result -> String.format(Locale.ROOT, "%.2f",
                            result.permitsTaken() / result.decisions())),
                    join(entry.getValue(), result -> MarkdownTable.count(result.permitsGivenBack())),
                    join(entry.getValue(), result -> result.decisions() == 0 ? "-"
                            : String.format(Locale.ROOT, "%.4f", result.admitted() / (result.decisions() - result.notDecided()))));
        }
        report.append(perRound);
        return report.toString();
    }

    private static String join(List<Result> results, Function<Result, String> figure) {
        return String.join(" / ", results.stream().map(figure).toList());
    }

    private static String percent(double share) {
        return String.format(Locale.ROOT, "%.2f %%", share * 100);
    }
}
