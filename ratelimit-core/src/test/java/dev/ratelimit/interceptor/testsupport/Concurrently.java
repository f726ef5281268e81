package dev.ratelimit.interceptor.testsupport;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntConsumer;

/** Runs work on many threads released together, for tests of what happens under contention. */
public final class Concurrently {

    private Concurrently() {
    }

    /**
     * Calls {@code action} once for each index {@code 0..count-1}, the indexes split evenly over
     * {@code threads} threads that start at the same moment; returns when every call returned, and
     * rethrows the first failure.
     */
    public static void forEachIndex(int threads, int count, IntConsumer action) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<?>> workers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int first = (int) ((long) t * count / threads);
                int end = (int) ((long) (t + 1) * count / threads);
                workers.add(pool.submit(() -> {
                    go.await();
                    for (int i = first; i < end; i++) {
                        action.accept(i);
                    }
                    return null;
                }));
            }
            go.countDown();
            for (Future<?> worker : workers) {
                worker.get();
            }
        } finally {
            pool.shutdown();
        }
    }
}
