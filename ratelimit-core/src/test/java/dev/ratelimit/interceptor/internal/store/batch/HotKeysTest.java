package dev.ratelimit.interceptor.internal.store.batch;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The hot-key table, on times given by the test: a key is hot at the threshold's rate within one tick. */
class HotKeysTest {

    private static final long THRESHOLD = 200;
    /** 200 a second is 20 in a tick of 100 ms. */
    private static final int PER_TICK = 20;

    private final HotKeys hotKeys = new HotKeys(THRESHOLD);

    @Test
    void aKeyAskedForAtTheThresholdsRateIsHotWithinATick() {
        long tickStart = 50 * HotKeys.TICK_NANOS;
        for (int i = 1; i < PER_TICK; i++) {
            assertThat(hotKeys.hit("busy", tickStart + i)).as("request %d", i).isFalse();
        }
        assertThat(hotKeys.hit("busy", tickStart + PER_TICK)).isTrue();
    }

    @Test
    void aKeyBelowTheRateNeverIsAndEachTickCountsAfresh() {
        for (int tick = 0; tick < 10; tick++) {
            for (int i = 0; i < PER_TICK - 1; i++) {
                assertThat(hotKeys.hit("steady", tick * HotKeys.TICK_NANOS + i)).isFalse();
            }
        }
    }

    @Test
    void manyKeysOnceEachNeverAreAndLeaveABusyKeyItsDetection() {
        long tickStart = 7 * HotKeys.TICK_NANOS;
        for (int user = 0; user < 100_000; user++) {
            assertThat(hotKeys.hit("user-" + user, tickStart + user)).isFalse();
        }
        long next = tickStart + HotKeys.TICK_NANOS;
        boolean hot = false;
        for (int i = 0; i < PER_TICK; i++) {
            hot = hotKeys.hit("busy", next + i);
        }
        assertThat(hot).as("first in its slot in a fresh tick").isTrue();
    }
}
