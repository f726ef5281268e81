package dev.ratelimit.interceptor.internal.background;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Writes repeated on a thread of their own, and none once the app is stopping. */
class PeriodicRedisWriteTest {

    @Test
    void writesRepeatedlyUntilCancelled() throws InterruptedException {
        CountDownLatch three = new CountDownLatch(3);
        PeriodicRedisWrite writes = new PeriodicRedisWrite("test writes", "nothing", three::countDown);

        writes.schedule(0, 10);

        assertThat(three.await(10, TimeUnit.SECONDS)).isTrue();
        writes.cancel();
    }

    /** A heartbeat started by a ready event that comes after a SIGTERM began the stop. */
    @Test
    void aScheduleAfterTheStopBeganIsNoFailure() {
        AtomicInteger written = new AtomicInteger();
        PeriodicRedisWrite writes = new PeriodicRedisWrite("test writes", "nothing", written::incrementAndGet);
        writes.cancel();

        assertThatCode(() -> writes.schedule(0, 10)).doesNotThrowAnyException();
        assertThat(written).hasValue(0);
    }
}
