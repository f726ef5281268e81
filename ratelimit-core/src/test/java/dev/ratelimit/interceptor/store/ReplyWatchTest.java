package dev.ratelimit.interceptor.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * How long a request waits, with replies completed by a timer thread as Redis' would be: while any
 * reply comes the wait goes on, up to the maximum; with none, it ends after the silence timeout.
 */
class ReplyWatchTest {

    private static final Duration SILENCE = Duration.ofMillis(100);
    private static final Duration MAX_WAIT = Duration.ofMillis(1_000);

    private final ReplyWatch watch = new ReplyWatch(SILENCE, MAX_WAIT);
    private final ScheduledExecutorService redis = Executors.newSingleThreadScheduledExecutor();

    @AfterEach
    void stop() {
        redis.shutdownNow();
    }

    @Test
    void aReplyThatComesIsAwaited() {
        CompletableFuture<Object> reply = watch.watch(new CompletableFuture<>());
        redis.schedule(() -> reply.complete("ok"), 30, TimeUnit.MILLISECONDS);

        assertThat(watch.await(List.of(reply), ReplyReaders.UNWATCHED)).isEqualTo(ReplyWatch.Outcome.ANSWERED);
    }

    @Test
    void nothingAnsweredForTheSilenceTimeoutEndsTheWait() {
        long start = System.nanoTime();

        assertThat(watch.await(List.of(watch.watch(new CompletableFuture<>())), ReplyReaders.UNWATCHED)).isEqualTo(ReplyWatch.Outcome.SILENT);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isBetween(SILENCE, MAX_WAIT);
    }

    /** Replies to other commands every 40 ms: Redis answers, so the wait goes on past the silence timeout. */
    @Test
    void whileOtherRepliesComeTheWaitGoesOnPastTheSilenceTimeout() {
        CompletableFuture<Object> reply = watch.watch(new CompletableFuture<>());
        redis.scheduleAtFixedRate(() -> watch.watch(new CompletableFuture<>()).complete("other"), 0, 40,
                TimeUnit.MILLISECONDS);
        redis.schedule(() -> reply.complete("ok"), 400, TimeUnit.MILLISECONDS);

        assertThat(watch.await(List.of(reply), ReplyReaders.UNWATCHED)).isEqualTo(ReplyWatch.Outcome.ANSWERED);
        assertThat(reply).isCompletedWithValue("ok");
    }

    @Test
    void aReplyThatNeverComesWhileOthersDoEndsTheWaitAtTheMaximum() {
        redis.scheduleAtFixedRate(() -> watch.watch(new CompletableFuture<>()).complete("other"), 0, 20,
                TimeUnit.MILLISECONDS);
        long start = System.nanoTime();

        assertThat(watch.await(List.of(watch.watch(new CompletableFuture<>())), ReplyReaders.UNWATCHED)).isEqualTo(ReplyWatch.Outcome.TOO_SLOW);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isBetween(MAX_WAIT, MAX_WAIT.multipliedBy(5));
    }

    @Test
    void anErrorReplyIsAnAnswer() {
        CompletableFuture<Object> reply = watch.watch(new CompletableFuture<>());
        reply.completeExceptionally(new IllegalStateException("NOSCRIPT"));

        assertThat(watch.await(List.of(reply), ReplyReaders.UNWATCHED)).isEqualTo(ReplyWatch.Outcome.ANSWERED);
    }

    /**
     * The threads that read replies do not run for three silence timeouts (a starved event loop): nothing
     * can have been read, so the wait goes on; once they run again, Redis is silent after the timeout.
     */
    @Test
    void slicesInWhichTheReadersDidNotRunDoNotCount() {
        Duration stall = SILENCE.multipliedBy(3);
        // The clock starts before the stall's end is set, so that the time between the two is not taken as stall.
        long start = System.nanoTime();
        long stalledUntil = start + stall.toNanos();
        ReplyReaders stalled = new ReplyReaders() {
            @Override
            public void check() {
            }

            @Override
            public boolean ranSince(long nanoTime) {
                return System.nanoTime() - stalledUntil > 0;
            }
        };

        assertThat(watch.await(List.of(watch.watch(new CompletableFuture<>())), stalled))
                .isEqualTo(ReplyWatch.Outcome.SILENT);
        // The slice the stall ends in counts: the readers ran in it.
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(stall.plus(SILENCE.multipliedBy(3).dividedBy(4)));
    }

    /**
     * The readers are asked to note that they run only once a reply is late: a reply that comes during the
     * first, short wait (as nearly every one does) costs them nothing, and one that does not asks them once.
     */
    @Test
    void onlyALateReplyAsksTheReaders() {
        AtomicInteger asked = new AtomicInteger();
        CompletableFuture<Object> late = watch.watch(new CompletableFuture<>());
        ReplyReaders counted = new ReplyReaders() {
            @Override
            public void check() {
                asked.incrementAndGet();
                late.complete("ok"); // Redis answers as the readers are asked
            }

            @Override
            public boolean ranSince(long nanoTime) {
                return true;
            }
        };

        assertThat(watch.await(List.of(answeredAsTheWaitBegins()), counted)).isEqualTo(ReplyWatch.Outcome.ANSWERED);
        assertThat(asked).hasValue(0);
        assertThat(watch.await(List.of(late), counted)).isEqualTo(ReplyWatch.Outcome.ANSWERED);
        assertThat(asked).hasValue(1);
    }

    /**
     * A reply that Redis answers as the waiting thread begins its first timed wait for it: when that wait first
     * looks whether it is in. A watch that asked the readers before that wait would ask them for this reply.
     */
    private CompletableFuture<Object> answeredAsTheWaitBegins() {
        return watch.watch(new CompletableFuture<>() {
            @Override
            public boolean isDone() {
                if (!super.isDone() && StackWalker.getInstance().walk(frames -> frames.skip(1)
                        .anyMatch(frame -> frame.getMethodName().equals("waitFor")))) {
                    complete("ok");
                }
                return super.isDone();
            }
        });
    }

    /** A reply that comes after the maximum wait, while the readers did not run, is awaited. */
    @Test
    void aWaitInWhichTheReadersNeverRanOutlastsTheMaximumWait() {
        ReplyReaders neverRan = new ReplyReaders() {
            @Override
            public void check() {
            }

            @Override
            public boolean ranSince(long nanoTime) {
                return false;
            }
        };
        CompletableFuture<Object> reply = watch.watch(new CompletableFuture<>());
        redis.schedule(() -> reply.complete("ok"), MAX_WAIT.plusMillis(300).toMillis(), TimeUnit.MILLISECONDS);

        assertThat(watch.await(List.of(reply), neverRan)).isEqualTo(ReplyWatch.Outcome.ANSWERED);
    }

    @Test
    void theMaximumWaitCannotBeShorterThanTheSilenceTimeout() {
        assertThatThrownBy(() -> new ReplyWatch(SILENCE, SILENCE.minusMillis(1)))
                .hasMessageContaining("must not be shorter");
    }
}
