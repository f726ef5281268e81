package dev.ratelimit.interceptor.testsupport;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntFunction;
import org.awaitility.Awaitility;

/**
 * Real HTTP requests sent by many threads until stopped, each answer recorded with the time it was
 * sent and how long it took, so that a test can look at any window of the run (an outage, a recovery).
 */
public final class HttpLoad implements AutoCloseable {

    /**
     * One request.
     *
     * @param path       what was asked
     * @param startNanos {@link System#nanoTime()} when it was sent
     * @param status     the HTTP status, or -1 when no answer came (the exception is in {@code error})
     */
    public record Sample(String path, long startNanos, long latencyNanos, int status, String error) {

        public boolean sentIn(long fromNanos, long toNanos) {
            return startNanos >= fromNanos && startNanos < toNanos;
        }
    }

    private final List<Sample> samples = Collections.synchronizedList(new ArrayList<>());
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final ExecutorService threads;

    /**
     * Starts {@code threadCount} threads; thread {@code t} sends {@code path.apply(i)} with a growing
     * {@code i} of its own, each number used by one thread only ({@code i = t, t + threadCount, ...}).
     */
    public HttpLoad(HttpProbe http, int threadCount, IntFunction<String> path) {
        threads = Executors.newFixedThreadPool(threadCount);
        for (int t = 0; t < threadCount; t++) {
            int first = t;
            threads.execute(() -> {
                for (int i = first; running.get(); i += threadCount) {
                    samples.add(send(http, path.apply(i)));
                }
            });
        }
    }

    /** Sends {@code count} requests on {@code threadCount} threads and returns when all are answered. */
    public static List<Sample> run(HttpProbe http, int threadCount, int count, IntFunction<String> path)
            throws InterruptedException {
        ExecutorService pool = Executors.newFixedThreadPool(threadCount);
        List<Sample> samples = Collections.synchronizedList(new ArrayList<>());
        for (int i = 0; i < count; i++) {
            int n = i;
            pool.execute(() -> samples.add(send(http, path.apply(n))));
        }
        pool.shutdown();
        if (!pool.awaitTermination(2, TimeUnit.MINUTES)) {
            throw new IllegalStateException("requests still running after 2 minutes");
        }
        return List.copyOf(samples);
    }

    private static Sample send(HttpProbe http, String path) {
        long start = System.nanoTime();
        try {
            int status = http.status(path);
            return new Sample(path, start, System.nanoTime() - start, status, null);
        } catch (RuntimeException e) {
            return new Sample(path, start, System.nanoTime() - start, -1, e.toString());
        }
    }

    /** Waits until {@code more} requests beyond those answered now are answered (at most 30 s). */
    public void awaitMore(int more) {
        int target = samples().size() + more;
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> samples().size() >= target);
    }

    /** Every request answered so far. */
    public List<Sample> samples() {
        synchronized (samples) {
            return List.copyOf(samples);
        }
    }

    /** Stops sending and waits for the requests in flight. */
    @Override
    public void close() throws InterruptedException {
        running.set(false);
        threads.shutdown();
        if (!threads.awaitTermination(1, TimeUnit.MINUTES)) {
            throw new IllegalStateException("load threads still running after a minute");
        }
    }

    /** The {@code percent} percentile of the latencies, in milliseconds (nearest rank). */
    public static double percentileMillis(List<Sample> samples, double percent) {
        if (samples.isEmpty()) {
            throw new IllegalArgumentException("no samples");
        }
        long[] latencies = samples.stream().mapToLong(Sample::latencyNanos).sorted().toArray();
        int rank = (int) Math.ceil(percent / 100 * latencies.length);
        return latencies[Math.max(0, rank - 1)] / 1_000_000.0;
    }
}
