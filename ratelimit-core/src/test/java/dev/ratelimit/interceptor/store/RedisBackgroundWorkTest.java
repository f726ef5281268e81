package dev.ratelimit.interceptor.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.context.support.GenericApplicationContext;

/**
 * The limiter's background work stops in an app's real lifecycle, each bean on a thread of its own: work
 * whose stop Redis holds (a last write that never returns) holds the app's stop for
 * {@link RedisBackgroundWork#STOP_WAIT} in all, not once per bean, and work that ends sooner is waited for.
 */
class RedisBackgroundWorkTest {

    private static final int BEANS = 5;

    @Test
    @Timeout(60) // a stop that waits for Redis would wait for ever here
    void workThatRedisHoldsHoldsTheAppsStopForTheStopWaitInAll() {
        CountDownLatch redisAnswers = new CountDownLatch(1);
        GenericApplicationContext app = new GenericApplicationContext();
        IntStream.range(0, BEANS).forEach(i -> app.registerBean("held" + i, Held.class, () -> new Held(redisAnswers)));
        app.refresh();

        long closing = System.nanoTime();
        app.close();
        Duration stop = Duration.ofNanos(System.nanoTime() - closing);
        redisAnswers.countDown();

        assertThat(stop).as("one stop wait, not %d one after the other", BEANS)
                .isBetween(RedisBackgroundWork.STOP_WAIT, RedisBackgroundWork.STOP_WAIT.multipliedBy(2));
    }

    @Test
    void workThatEndsIsWaitedFor() {
        List<String> stopped = new CopyOnWriteArrayList<>();
        GenericApplicationContext app = new GenericApplicationContext();
        app.registerBean("quick", Quick.class, () -> new Quick(stopped));
        app.refresh();

        app.close();

        assertThat(stopped).containsExactly("last write");
    }

    /** Its last write waits for a Redis that does not answer. */
    static final class Held extends RedisBackgroundWork {

        private final CountDownLatch redisAnswers;

        Held(CountDownLatch redisAnswers) {
            this.redisAnswers = redisAnswers;
        }

        @Override
        protected void stopping() {
            try {
                redisAnswers.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Its last write takes a moment. */
    static final class Quick extends RedisBackgroundWork {

        private final List<String> stopped;

        Quick(List<String> stopped) {
            this.stopped = stopped;
        }

        @Override
        protected void stopping() {
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            stopped.add("last write");
        }
    }
}
