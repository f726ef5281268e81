package dev.ratelimit.bench.report;

import static dev.ratelimit.bench.report.MarkdownTable.count;
import static dev.ratelimit.bench.report.MarkdownTable.ratio;

import dev.ratelimit.bench.local.LocalContender;
import java.util.List;

/** The tables of one run of the in-process decisions. */
final class LocalReport {

    private final List<Measurement> decisions;

    LocalReport(List<Measurement> decisions) {
        this.decisions = decisions;
    }

    String render() {
        StringBuilder out = new StringBuilder("## Decisions in process\n");
        for (Scenario scenario : Scenario.ALL) {
            MarkdownTable table = new MarkdownTable("threads", "contender", "decisions/s",
                    "ours (fixed window) ÷ this", "ours (token bucket) ÷ this");
            for (int threads : BenchmarkRun.LOCAL_THREADS) {
                for (LocalContender contender : LocalContender.values()) {
                    Measurement m = scenario.find(decisions, contender.name(), threads);
                    if (m != null) {
                        table.row(threads, contender, count(m.perSecond()),
                                ratio(scenario.ratio(decisions, LocalContender.OURS_FIXED_WINDOW.name(), m.contender(), threads)),
                                ratio(scenario.ratio(decisions, LocalContender.OURS_TOKEN_BUCKET.name(), m.contender(), threads)));
                    }
                }
            }
            out.append("\n### ").append(scenario.title()).append("\n\n").append(table);
        }
        return out.toString();
    }
}
