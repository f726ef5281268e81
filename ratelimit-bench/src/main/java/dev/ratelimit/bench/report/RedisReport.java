package dev.ratelimit.bench.report;

import static dev.ratelimit.bench.report.MarkdownTable.count;
import static dev.ratelimit.bench.report.MarkdownTable.decimal;
import static dev.ratelimit.bench.report.MarkdownTable.ratio;

import dev.ratelimit.bench.redis.RedisContender;
import java.util.List;

/** The tables of one run of the decisions on Redis, with the ratios the targets are stated in. */
final class RedisReport {

    private static final String OURS = RedisContender.OURS_FIXED_WINDOW.name();

    /** A target: {@code ours} at least {@code hot} (resp. {@code spread}) times {@code peer}. */
    private record Target(String ours, String peer, double hot, double spread) {
    }

    private static final List<Target> TARGETS = List.of(
            new Target(OURS, "BUCKET4J_LETTUCE", 1.5, 1.0),
            new Target("OURS_TOKEN_BUCKET", "BUCKET4J_LETTUCE", 1.5, 1.0),
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
                            contender.isOurs() ? percent(m.perSecond() / evalsha.perSecond()) : "",
                            contender.isOurs() ? percent(m.perSecond() / script.perSecond()) : "");
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
                table.row(target.ours() + " ÷ " + target.peer(), scenario.keys(), "≥ " + ratio(wanted),
                        judged(scenario.ratio(decisions, target.ours(), target.peer(), 1), wanted),
                        judged(scenario.ratio(decisions, target.ours(), target.peer(), 8), wanted),
                        judged(scenario.ratio(decisions, target.ours(), target.peer(), 64), wanted));
            }
        }
        for (Scenario scenario : Scenario.ALL.subList(0, 2)) {
            table.row(OURS + " ÷ redis-benchmark EVALSHA", scenario.keys(), "≥ 70%",
                    judgedShare(scenario, 1), judgedShare(scenario, 8), judgedShare(scenario, 64));
        }
        return table;
    }

    private String judgedShare(Scenario scenario, int threads) {
        Measurement ours = scenario.find(decisions, OURS, threads);
        if (ours == null) {
            return "-";
        }
        double share = ours.perSecond() / ceiling(RedisCeiling.EVALSHA, threads).perSecond();
        return percent(share) + (share >= 0.7 ? "" : " (missed)");
    }

    private static String judged(double value, double wanted) {
        return ratio(value) + (Double.isNaN(value) || value >= wanted ? "" : " (missed)");
    }

    private static String percent(double share) {
        return Math.round(share * 100) + "%";
    }

    private Measurement ceiling(String test, int clients) {
        return ceiling.stream().filter(m -> m.contender().equals(test) && m.threads() == clients).findFirst()
                .orElseThrow();
    }
}
