package dev.ratelimit.interceptor.store.memory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.store.CounterRequest;
import dev.ratelimit.interceptor.store.Decision;
import dev.ratelimit.interceptor.testsupport.ConcurrentClients;
import dev.ratelimit.interceptor.testsupport.ManualClock;
import dev.ratelimit.interceptor.testsupport.Stores;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** What only the in-process store has to show: memory stays bounded. */
class MemoryRateLimitStoreTest {

    private static final long T0 = 1_700_000_000_000L;

    private final ManualClock clock = new ManualClock(T0);

    @ParameterizedTest
    @EnumSource(value = Algorithm.class, mode = EnumSource.Mode.EXCLUDE, names = "CONCURRENCY")
    void forgetsACounterWhenItsRedisKeyWouldExpire(Algorithm algorithm) {
        MemoryRateLimitStore store = new MemoryRateLimitStore(clock, 100);
        for (int i = 0; i < 3; i++) {
            acquire(store, "idle", algorithm);
        }
        assertThat(store.size()).isEqualTo(1);
        // A sliding window's count still weighs during the next window.
        long lifetime = algorithm == Algorithm.SLIDING_WINDOW ? 2_000 : 1_000;

        clock.set(T0 + lifetime - 1);
        acquire(store, "other", algorithm);
        assertThat(store.size()).isEqualTo(2);

        clock.set(T0 + lifetime + MemoryRateLimitStore.SWEEP_INTERVAL_MILLIS);
        acquire(store, "other", algorithm);
        assertThat(store.size()).isEqualTo(1);
    }

    @Test
    void aFloodOfMadeUpKeysStaysWithinTheCapAndDoesNotEvictRealCounters() throws Exception {
        MemoryRateLimitStore store = new MemoryRateLimitStore(clock, 1_000);
        acquire(store, "real-user", Algorithm.FIXED_WINDOW);
        acquire(store, "real-user", Algorithm.FIXED_WINDOW);
        AtomicInteger next = new AtomicInteger();

        int admitted = ConcurrentClients.admitted(16, 5_000,
                thread -> acquire(store, "bot-" + next.incrementAndGet(), Algorithm.SLIDING_LOG).allowed());

        assertThat(admitted).isEqualTo(80_000);
        assertThat(store.size()).isBetween(1_000, 1_000 + 16);
        assertThat(acquire(store, "real-user", Algorithm.FIXED_WINDOW).allowed()).isFalse();

        clock.advance(1_000 + MemoryRateLimitStore.SWEEP_INTERVAL_MILLIS);
        acquire(store, "real-user", Algorithm.FIXED_WINDOW);
        assertThat(store.size()).isEqualTo(1);
    }

    /** limit 2 per second. */
    private static Decision acquire(MemoryRateLimitStore store, String key, Algorithm algorithm) {
        return Stores.decide(store, new CounterRequest(key, algorithm, 2, 1_000));
    }
}
