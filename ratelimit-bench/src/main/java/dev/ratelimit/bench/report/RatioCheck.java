package dev.ratelimit.bench.report;

import dev.ratelimit.bench.redis.RedisContender;
import dev.ratelimit.bench.redis.RedisDecisionBenchmark;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * The short side-by-side check to run before a change of the request path: our fixed-window decision against
 * the same script sent on a bare Lettuce connection, at 1, 8 and 64 threads, on one hot key and on spread
 * keys, in a few minutes. The two run one after the other for each thread count, each round, so that a machine
 * that slows down or speeds up between rounds changes both; the table gives each round's ratio, so a reader
 * sees how far rounds disagree before trusting a difference. The full figures are {@code bench.sh redis}'s.
 */
final class RatioCheck {

    private static final String OURS = RedisContender.OURS_FIXED_WINDOW.name();
    private static final String BARE = RedisContender.FIXED_WINDOW_SCRIPT_LETTUCE_ONLY.name();
    private static final JmhMatrix.Timing TIMING = new JmhMatrix.Timing(2, 3, TimeValue.seconds(1));
    private static final int ROUNDS = 2;

    private RatioCheck() {
    }

    static String measure(Path out, boolean quick) throws Exception {
        JmhMatrix matrix = new JmhMatrix(RedisDecisionBenchmark.class, out.resolve("jmh-ratio"),
                quick ? JmhMatrix.Timing.QUICK : TIMING);
        int rounds = quick ? 1 : ROUNDS;
        List<List<Measurement>> byRound = new ArrayList<>();
        for (int round = 0; round < rounds; round++) {
            byRound.add(matrix.run(BenchmarkRun.REDIS_THREADS, "HOT,SPREAD", "ALLOW", List.of(OURS, BARE)));
        }
        MarkdownTable table = new MarkdownTable("keys", "threads", "ours decisions/s", "bare script decisions/s",
                "ours ÷ bare, each round");
        for (String keys : List.of("HOT", "SPREAD")) {
            for (int threads : BenchmarkRun.REDIS_THREADS) {
                List<String> ratios = new ArrayList<>();
                double ours = 0;
                double bare = 0;
                for (List<Measurement> round : byRound) {
                    double oursNow = find(round, OURS, keys, threads).perSecond();
                    double bareNow = find(round, BARE, keys, threads).perSecond();
                    ours += oursNow / rounds;
                    bare += bareNow / rounds;
                    ratios.add(MarkdownTable.ratio(oursNow / bareNow));
                }
                table.row(keys.toLowerCase(Locale.ROOT), threads, MarkdownTable.count(ours), MarkdownTable.count(bare),
                        String.join(", ", ratios));
            }
        }
        return "## Our decision against the bare script (ratio check)\n\n" + table
                + "\nOurs: `" + OURS + "`; bare: `" + BARE + "`, the same script through a Lettuce connection and"
                + " nothing else. Decisions per second are the rounds' mean. " + rounds + " round(s) of "
                + (quick ? "a quick measurement" : "2 s of warm-up and 3 s of measurement per cell") + ".\n";
    }

    private static Measurement find(List<Measurement> measurements, String contender, String keys, int threads) {
        return measurements.stream()
                .filter(m -> m.contender().equals(contender) && m.isIn(keys, "ALLOW", threads)).findFirst()
                .orElseThrow(() -> new IllegalStateException("no measurement of " + contender + " " + keys + " "
                        + threads));
    }
}
