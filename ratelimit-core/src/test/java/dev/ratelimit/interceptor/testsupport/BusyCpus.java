package dev.ratelimit.interceptor.testsupport;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Keeps every CPU of the machine busy while open: two spinning threads per processor, at normal
 * priority, in the test's JVM (where the apps under test run too). A limiter must stay exact on a
 * machine that has no CPU to spare; this makes the machine such a one.
 */
public final class BusyCpus implements AutoCloseable {

    private final AtomicBoolean spinning = new AtomicBoolean(true);
    private final List<Thread> threads = new ArrayList<>();

    private BusyCpus() {
    }

    public static BusyCpus start() {
        BusyCpus busy = new BusyCpus();
        int count = Runtime.getRuntime().availableProcessors() * 2;
        for (int i = 0; i < count; i++) {
            Thread thread = new Thread(busy::spin, "busy-cpu-" + i);
            thread.setDaemon(true);
            busy.threads.add(thread);
            thread.start();
        }
        return busy;
    }

    private void spin() {
        long sink = 0;
        while (spinning.get()) {
            sink += System.nanoTime() % 7;
        }
        if (sink == 42) {
            System.out.print(""); // keeps the loop from being optimised away
        }
    }

    @Override
    public void close() throws InterruptedException {
        spinning.set(false);
        for (Thread thread : threads) {
            thread.join();
        }
    }
}
