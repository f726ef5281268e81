package dev.ratelimit.interceptor.testsupport;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/** Many threads released at once by one latch, each repeating an attempt; counts the attempts that were admitted. */
public final class ConcurrentClients {

    private ConcurrentClients() {
    }

    /**
     * Runs {@code attempt} {@code perThread} times on each of {@code threads} threads, all started
     * together. Thread {@code t} gets {@code t} as argument (e.g. to pick an app instance).
     *
     * @return how many attempts returned {@code true}
     */
    public static int admitted(int threads, int perThread, ThreadAttempt attempt) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<Integer>> results = new ArrayList<>(threads);
            for (int t = 0; t < threads; t++) {
                int thread = t;
                Callable<Integer> client = () -> {
                    go.await();
                    int admitted = 0;
                    for (int i = 0; i < perThread; i++) {
                        if (attempt.admitted(thread)) {
                            admitted++;
                        }
                    }
                    return admitted;
                };
                results.add(pool.submit(client));
            }
            go.countDown();
            int admitted = 0;
            for (Future<Integer> result : results) {
                admitted += result.get(60, TimeUnit.SECONDS);
            }
            return admitted;
        } finally {
            pool.shutdownNow();
        }
    }

    /** One attempt of one thread. */
    @FunctionalInterface
    public interface ThreadAttempt {
        boolean admitted(int thread) throws Exception;
    }
}
