package dev.ratelimit.bench.report;

import static dev.ratelimit.bench.report.MarkdownTable.count;
import static dev.ratelimit.bench.report.MarkdownTable.decimal;
import static dev.ratelimit.bench.report.MarkdownTable.ratio;

import dev.ratelimit.bench.redis.RedisContender;
import java.util.ArrayList;
import java.util.List;

/** The tables of one run of the decisions on Redis, with the ratios the targets are stated in. */
final class RedisReport {

    private static final String OURS = RedisContender.OURS_FIXED_WINDOW.name();

    /**
     * A target: {@code ours} at least {@code hot} (resp. {@code spread}) times {@code peer}; on the hot key
     * only from {@code hotFromThreads} threads on (the Bucket4j target is stated for 64 threads).
     */
    private record Target(String ours, String peer, double hot, double spread, int hotFromThreads) {

        Target(String ours, String peer, double hot, double spread) {
            this(ours, peer, hot, spread, 1);
        }

        boolean applies(Scenario scenario, int threads) {
            return !scenario.keys().equals("HOT") || threads >= hotFromThreads;
        }
    }

    private static final List<Target> TARGETS = List.of(
            new Target(OURS, "BUCKET4J_LETTUCE", 1.5, 1.0, 64),
            new Target("OURS_TOKEN_BUCKET", "BUCKET4J_LETTUCE", 1.5, 1.0, 64),
            new Target(OURS, "REDISSON", 1.0, 1.0),
            new Target("OURS_SLIDING_LOG", "REDISSON", 1.0, 1.0),
            new Target(OURS, "SCG_TOKEN_BUCKET", 1.0, 1.0),
            new Target("OURS_TOKEN_BUCKET", "SCG_TOKEN_BUCKET", 1.0, 1.0),
            new Target(OURS, "NAIVE_FIXED_WINDOW", 2.0, 2.0));

    private final List<Measurement> ceiling;
    private final List<Measurement> decisions;

    RedisReport(List<Measurement> ceiling, List<Measurement> decisions) {
        this.ceiling = ceiling;
        this.decisions = decisions;
    }

    String render() {
        StringBuilder out = new StringBuilder("## Decisions on Redis\n\n### The Redis ceiling (redis-benchmark)\n\n")
                .append(ceilingTable());
        for (Scenario scenario : Scenario.ALL) {
            out.append("\n### ").append(scenario.title()).append("\n\n").append(decisionTable(scenario));
        }
        return out.append("\n### Targets: ours ÷ peer, decisions per second\n\n").append(targetTable()).toString();
    }

    private MarkdownTable ceilingTable() {
        MarkdownTable table = new MarkdownTable("clients", "test", "requests/s", "p50 µs", "p99 µs");
        for (int clients : BenchmarkRun.REDIS_THREADS) {
            for (String test : List.of(RedisCeiling.EVALSHA, RedisCeiling.INCR, RedisCeiling.OUR_SCRIPT)) {
                Measurement m = ceiling(test, clients);
                table.row(clients, test, count(m.perSecond()), decimal(m.p50Micros()), decimal(m.p99Micros()));
            }
        }
        return table;
    }

    private MarkdownTable decisionTable(Scenario scenario) {
        MarkdownTable table = new MarkdownTable("threads", "contender", "decisions/s", "p50 µs", "p99 µs",
                "ours (fixed window) ÷ this", "of EVALSHA ceiling", "of our script's ceiling");
        for (int threads : BenchmarkRun.REDIS_THREADS) {
            Measurement ours = scenario.find(decisions, OURS, threads);
            Measurement evalsha = ceiling(RedisCeiling.EVALSHA, threads);
            Measurement script = ceiling(RedisCeiling.OUR_SCRIPT, threads);
            for (RedisContender contender : RedisContender.values()) {
                Measurement m = scenario.find(decisions, contender.name(), threads);
                if (m != null) {
                    table.row(threads, contender, count(m.perSecond()), decimal(m.p50Micros()), decimal(m.p99Micros()),
                            ours == null ? "-" : ratio(ours.perSecond() / m.perSecond()),
                            percent(m.perSecond() / evalsha.perSecond()), percent(m.perSecond() / script.perSecond()));
                }
            }
        }
        return table;
    }

    private MarkdownTable targetTable() {
        MarkdownTable table = new MarkdownTable("ours ÷ peer", "keys", "target", "1 thread", "8 threads", "64 threads");
        for (Target target : TARGETS) {
            for (Scenario scenario : Scenario.ALL.subList(0, 2)) {
                double wanted = scenario.keys().equals("HOT") ? target.hot() : target.spread();
                String from = target.applies(scenario, 1) ? "" : " at " + target.hotFromThreads() + " threads";
                List<String> cells = new ArrayList<>(List.of(target.ours() + " ÷ " + target.peer(), scenario.keys(),
                        "≥ " + ratio(wanted) + from));
                for (int threads : BenchmarkRun.REDIS_THREADS) {
                    cells.add(judged(scenario.ratio(decisions, target.ours(), target.peer(), threads), wanted,
                            target.applies(scenario, threads)));
                }
                table.row(cells.toArray());
            }
        }
        // The Lettuce-only row is no target: it shows how much of the ceiling a Java client reaches at all.
        for (String contender : List.of(OURS, RedisContender.FIXED_WINDOW_SCRIPT_LETTUCE_ONLY.name())) {
            for (Scenario scenario : Scenario.ALL.subList(0, 2)) {
                boolean target = contender.equals(OURS);
                table.row(contender + " ÷ redis-benchmark EVALSHA", scenario.keys(), target ? "≥ 70%" : "-",
                        judgedShare(scenario, contender, 1, target), judgedShare(scenario, contender, 8, target),
                        judgedShare(scenario, contender, 64, target));
            }
        }
        return table;
    }

    private String judgedShare(Scenario scenario, String contender, int threads, boolean target) {
        Measurement ours = scenario.find(decisions, contender, threads);
        if (ours == null) {
            return "-";
        }
        double share = ours.perSecond() / ceiling(RedisCeiling.EVALSHA, threads).perSecond();
        return percent(share) + (!target || share >= 0.7 ? "" : " (missed)");
    }

    private static String judged(double value, double wanted, boolean target) {
        return ratio(value) + (!target || Double.isNaN(value) || value >= wanted ? "" : " (missed)");
    }

    private static String percent(double share) {
        return Math.round(share * 100) + "%";
    }

    private Measurement ceiling(String test, int clients) {
        return ceiling.stream().filter(m -> m.contender().equals(test) && m.threads() == clients).findFirst()
                .orElseThrow();
    }
}
