package dev.ratelimit.interceptor.internal.log.writer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.Dimension;
import dev.ratelimit.interceptor.log.Interception;
import dev.ratelimit.interceptor.rule.RuleId;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The rows waiting to be written: identical interceptions are one row, and rows are taken in the order they came. */
class InterceptionCoalescerTest {

    private static final long WINDOW = 1_000_000_000L;

    @Test
    void rowsAreTakenInTheOrderTheirFirstInterceptionsCameIdenticalOnesCounted() {
        InterceptionCoalescer waiting = new InterceptionCoalescer(1000, WINDOW);
        List<String> offered = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            // A hash map of 200 keys iterates in no order of theirs: only the arrival order keeps it.
            String uri = "/r" + Integer.toString(i * 7919 % 1000, 36);
            offered.add(uri);
            assertThat(waiting.offer(interception(uri), 0)).isTrue();
            assertThat(waiting.offer(interception(uri), 1)).as("an identical one, coalesced").isTrue();
        }

        assertThat(waiting.due(WINDOW - 1)).as("no window has ended").isEmpty();
        List<InterceptionCoalescer.Coalesced> due = waiting.due(WINDOW);

        assertThat(due).extracting(row -> row.first().uri()).containsExactlyElementsOf(offered);
        assertThat(due).allSatisfy(row -> assertThat(row.hits()).isEqualTo(2));
        assertThat(waiting.size()).isZero();
    }

    @Test
    void theRowsTakenAtShutdownComeInOrderToo() {
        InterceptionCoalescer waiting = new InterceptionCoalescer(1000, WINDOW);
        List<String> offered = IntStream.range(0, 100).mapToObj(i -> "/s" + (100 - i)).toList();
        offered.forEach(uri -> waiting.offer(interception(uri), 0));

        assertThat(waiting.all()).extracting(row -> row.first().uri()).containsExactlyElementsOf(offered);
    }

    private static Interception interception(String uri) {
        return new Interception(Instant.parse("2026-12-02T00:00:00Z"), RuleId.of("shop", "Orders.create"), "ada", "10.0.0.1",
                "POST", uri, Dimension.USER, 5, 60, false);
    }
}
