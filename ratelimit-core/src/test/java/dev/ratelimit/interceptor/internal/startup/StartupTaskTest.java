package dev.ratelimit.interceptor.internal.startup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.event.ApplicationReadyEvent;

/** A task done once when the app is ready, and dropped quietly when the app stops first. */
class StartupTaskTest {

    @Test
    void runsOnceOnTheFirstReadyEvent() throws InterruptedException {
        AtomicInteger runs = new AtomicInteger();
        CountDownLatch ran = new CountDownLatch(1);
        StartupTask task = new StartupTask("count", () -> {
            runs.incrementAndGet();
            ran.countDown();
        });

        task.onApplicationEvent(ready());
        task.onApplicationEvent(ready());

        assertThat(ran.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(runs).hasValue(1);
        task.destroy();
    }

    /** A SIGTERM right after "Started": the stop shut the task down before the ready event reached it. */
    @Test
    void aReadyEventAfterTheStopBeganIsNoFailureOfTheStart() {
        AtomicInteger runs = new AtomicInteger();
        StartupTask task = new StartupTask("count", runs::incrementAndGet);
        task.destroy();

        assertThatCode(() -> task.onApplicationEvent(ready())).doesNotThrowAnyException();
        assertThat(runs).hasValue(0);
    }

    private static ApplicationReadyEvent ready() {
        return new ApplicationReadyEvent(new SpringApplication(), new String[0], null, Duration.ZERO);
    }
}
