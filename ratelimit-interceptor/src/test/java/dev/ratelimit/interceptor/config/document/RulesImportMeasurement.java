package dev.ratelimit.interceptor.config.document;

import dev.ratelimit.interceptor.fixture.FixtureApplication;
import dev.ratelimit.interceptor.fixture.PlanController;
import dev.ratelimit.interceptor.testsupport.RedisServerProcess;
import java.time.Duration;
import java.time.Instant;
import org.awaitility.Awaitility;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * How long the preview of a rules document of many client exceptions takes (not a test: run it by hand,
 * {@code java ... RulesImportMeasurement}): 1,000 to 20,000 exceptions of one rule, each previewed three times
 * after a warm-up, against a real Redis and the fixture app. Prints one line a size.
 */
public final class RulesImportMeasurement {

    private RulesImportMeasurement() {
    }

    public static void main(String[] args) {
        try (RedisServerProcess redis = RedisServerProcess.start()) {
            ConfigurableApplicationContext app = FixtureApplication.start(redis.port());
            try {
                Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> redis.commands()
                        .hexists("ratelimit:sysconfig", "declared." + PlanController.RULE + ".check"));
                RuleDocuments documents = app.getBean(RuleDocuments.class);
                for (int size : new int[] {1_000, 1_000, 5_000, 10_000, 20_000}) {
                    String document = document(size);
                    long best = Long.MAX_VALUE;
                    int refused = 0;
                    for (int round = 0; round < 3; round++) {
                        long start = System.nanoTime();
                        RulesImport.Preview preview = documents.preview(document, RulesImport.Mode.MERGE);
                        best = Math.min(best, System.nanoTime() - start);
                        refused = preview.refused().size();
                    }
                    System.out.printf("FIGURES rules import preview: %,d exceptions: %,d ms (best of 3), %,d refused%n",
                            size, best / 1_000_000, refused);
                }
            } finally {
                app.close();
            }
        }
    }

    private static String document(int exceptions) {
        String until = Instant.now().plus(Duration.ofDays(7)).toString();
        StringBuilder document = new StringBuilder("ratelimit-rules: 1\nmodules:\n  fixture:\n    "
                + PlanController.RULE.rule() + ":\n      exceptions:\n");
        for (int i = 0; i < exceptions; i++) {
            document.append("        client-").append(i).append(": 5/60 until ").append(until).append('\n');
        }
        return document.toString();
    }
}
