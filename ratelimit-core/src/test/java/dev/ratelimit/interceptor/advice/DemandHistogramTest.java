package dev.ratelimit.interceptor.advice;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DemandHistogramTest {

    /** Ten clients, the i-th asking i times in its window, as a tally records them: each request the n-th of its window. */
    private static DemandHistogram tenClients(long limit) {
        DemandTally tally = new DemandTally(DemandBin.exactBelow(limit));
        for (int client = 1; client <= 10; client++) {
            for (int n = 1; n <= client; n++) {
                tally.add(n);
            }
        }
        Map<DemandBin, Long> bins = new HashMap<>();
        tally.drainInto(bins);
        DemandHistogram histogram = new DemandHistogram();
        bins.forEach(histogram::add);
        return histogram;
    }

    @Test
    void aLimitRefusesTheClientWindowsPastItAndOneRequestPerCountPastIt() {
        DemandHistogram histogram = tenClients(5);
        assertThat(histogram.clients()).isEqualTo(10);
        assertThat(histogram.requests()).isEqualTo(55);
        assertThat(histogram.highest()).isEqualTo(10);
        for (long limit = 1; limit <= 12; limit++) {
            long refusedClients = 0;
            long refusedRequests = 0;
            for (long client = 1; client <= 10; client++) {
                refusedClients += client > limit ? 1 : 0;
                refusedRequests += Math.max(0, client - limit);
            }
            assertThat(histogram.refusedClients(limit)).as("clients refused by %d", limit).isEqualTo(refusedClients);
            assertThat(histogram.refusedRequests(limit)).as("requests refused by %d", limit).isEqualTo(refusedRequests);
        }
        assertThat(histogram.smallestLimitRefusing(0.01)).isEqualTo(10);
        assertThat(histogram.smallestLimitRefusing(0.2)).isEqualTo(8);
        assertThat(histogram.smallestLimitRefusing(1)).isEqualTo(1);
    }

    @Test
    void aTallyGivesEachCountOnceAndForgetsWhatItGave() {
        DemandTally tally = new DemandTally(DemandBin.exactBelow(5));
        tally.add(3);
        tally.add(3);
        tally.add(1_003); // above the exact bound: a bin of 8 counts
        Map<DemandBin, Long> bins = new HashMap<>();
        tally.drainInto(bins);
        assertThat(bins).containsExactlyInAnyOrderEntriesOf(Map.of(new DemandBin(3, 1), 2L, new DemandBin(1_000, 8), 1L));
        Map<DemandBin, Long> again = new HashMap<>();
        tally.drainInto(again);
        assertThat(again).isEmpty();
    }

    @Test
    void refusalsWithoutRedisAreOneReachOfEachCountPastTheHighestRedisGave() {
        DemandHistogram histogram = tenClients(5);
        histogram.add(11, 14, 3); // the client of 10 asked 3 more times from a near cache
        assertThat(histogram.highest()).isEqualTo(13);
        assertThat(histogram.requests()).isEqualTo(58);
        assertThat(histogram.refusedClients(10)).isEqualTo(1);
        assertThat(histogram.refusedRequests(10)).isEqualTo(3);
        assertThat(histogram.refusedRequests(5)).isEqualTo(15 + 3);
    }

    @Test
    void aBinAboveTheExactBoundIsSpreadEvenly() {
        DemandHistogram histogram = new DemandHistogram();
        histogram.add(new DemandBin(1, 1), 4);
        histogram.add(new DemandBin(128, 4), 8); // two clients reached all of 128..131
        assertThat(histogram.reached(129)).isEqualTo(2);
        assertThat(histogram.refusedRequests(129)).isEqualTo(4);
        assertThat(histogram.refusedRequests(200)).isZero();
        assertThat(histogram.refusedClients(127)).isEqualTo(2);
    }
}
