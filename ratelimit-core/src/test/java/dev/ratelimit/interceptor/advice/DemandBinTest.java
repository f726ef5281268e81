package dev.ratelimit.interceptor.advice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DemandBinTest {

    @Test
    void countsAreExactToAPowerOfTwoAboveTwiceTheLimitAndWithinASixtyFourthAbove() {
        assertThat(DemandBin.exactBelow(5)).isEqualTo(64);
        assertThat(DemandBin.exactBelow(100)).isEqualTo(256);
        assertThat(DemandBin.exactBelow(128)).isEqualTo(512);
        assertThat(DemandBin.exactBelow(1_000_000)).isEqualTo(DemandBin.MAX_EXACT_BELOW);
        for (long limit : List.of(1L, 5L, 100L, 128L, 5_000L, 1_000_000L)) {
            long exactBelow = DemandBin.exactBelow(limit);
            assertThat(exactBelow).isGreaterThan(Math.min(2 * limit, DemandBin.MAX_EXACT_BELOW / 2));
            for (long n = 1; n < exactBelow; n += Math.max(1, exactBelow / 500)) {
                assertThat(DemandBin.of(n, exactBelow)).isEqualTo(new DemandBin(n, 1));
            }
            for (long n = exactBelow; n < 100 * exactBelow; n += 7) {
                DemandBin bin = DemandBin.of(n, exactBelow);
                assertThat(n).isBetween(bin.start(), bin.end() - 1);
                assertThat(bin.width()).isLessThanOrEqualTo(Math.max(1, n / DemandBin.SUB_BINS));
            }
        }
    }

    @Test
    void binsOfAnyTwoLayoutsAreDisjointOrNestedSoInstancesWithDifferentLimitsAddUp() {
        Map<Long, DemandBin> small = new HashMap<>();
        for (long n = 1; n < 20_000; n++) {
            DemandBin a = DemandBin.of(n, DemandBin.exactBelow(5));
            DemandBin b = DemandBin.of(n, DemandBin.exactBelow(3_000));
            DemandBin outer = a.width() >= b.width() ? a : b;
            DemandBin inner = outer == a ? b : a;
            assertThat(inner.start()).isGreaterThanOrEqualTo(outer.start());
            assertThat(inner.end()).isLessThanOrEqualTo(outer.end());
            small.putIfAbsent(a.start(), a);
        }
        DemandBin previous = null;
        for (DemandBin bin : small.values().stream().sorted((x, y) -> Long.compare(x.start(), y.start())).toList()) {
            if (previous != null) {
                assertThat(bin.start()).as("one layout tiles the counts").isEqualTo(previous.end());
            }
            previous = bin;
        }
    }

    @Test
    void aFieldNamesItsBinAndNothingElseIsABin() {
        for (DemandBin bin : List.of(new DemandBin(7, 1), new DemandBin(256, 4), new DemandBin(1 << 20, 1 << 14))) {
            assertThat(DemandBin.parse(bin.field())).isEqualTo(bin);
        }
        assertThat(new DemandBin(7, 1).field()).isEqualTo("7");
        assertThat(new DemandBin(256, 4).field()).isEqualTo("256+4");
        assertThat(DemandBin.parse("5+3")).as("a run of exact counts: 5, 6 and 7").isEqualTo(DemandBin.run(5, 7));
        for (String field : List.of("", "x", "0", "-3", "5+0", "0+4", "256+", "+4", "1|n")) {
            assertThatIllegalArgumentException().isThrownBy(() -> DemandBin.parse(field));
        }
    }
}
