package dev.ratelimit.bench.latency;

import dev.ratelimit.bench.KeySpread;
import dev.ratelimit.bench.report.MarkdownTable;
import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.store.CounterRequest;
import dev.ratelimit.interceptor.store.RedisRateLimitStore;
import dev.ratelimit.interceptor.store.StoreResult;
import dev.ratelimit.interceptor.testsupport.BusyCpus;
import dev.ratelimit.interceptor.testsupport.RedisServerProcess;
import dev.ratelimit.interceptor.testsupport.ShippedDefaults;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * How long one decision of our Redis store takes, from the call to the answer, as a request thread
 * sees it: the distribution that the default {@code ratelimit.redis.timeout} must clear. Measured with
 * 32 threads (a web server's worth) on one redis-server, spread keys, first on an otherwise idle
 * machine, then with every CPU kept busy by two spinning threads per core in the same JVM. Decisions
 * that the store could not make are counted apart: with the shipped settings there must be none.
 */
public final class DecisionLatency {

    private static final int THREADS = 32;
    private static final int SAMPLES_PER_THREAD = 1_000_000;

    private DecisionLatency() {
    }

    /** @param seconds per condition, after a warm-up of the same length */
    public static String measure(int seconds) throws Exception {
        MarkdownTable table = new MarkdownTable("machine", "decisions", "not decided", "p50 ms", "p99 ms",
                "p99.9 ms", "p99.99 ms", "max ms");
        try (RedisServerProcess redis = RedisServerProcess.start()) {
            RedisRateLimitStore store = new RedisRateLimitStore(redis.connection());
            store.open(Duration.ofSeconds(1));
            run(store, seconds);
            row(table, "idle", run(store, seconds));
            try (BusyCpus busy = BusyCpus.start()) {
                row(table, "busy (2 spinning threads per core)", run(store, seconds));
            }
        }
        return "## Decision latency on Redis (" + THREADS + " threads, " + seconds + " s per machine state, timeout "
                + ShippedDefaults.SILENCE.toMillis() + " ms)\n\n" + table;
    }

    private static void row(MarkdownTable table, String machine, Result result) {
        long[] sorted = result.nanos();
        table.row(machine, MarkdownTable.count(sorted.length), result.notDecided(), millis(sorted, 0.5),
                millis(sorted, 0.99), millis(sorted, 0.999), millis(sorted, 0.9999),
                MarkdownTable.decimal(sorted[sorted.length - 1] / 1e6));
    }

    private static String millis(long[] sorted, double quantile) {
        return MarkdownTable.decimal(sorted[(int) Math.min(sorted.length - 1, Math.ceil(quantile * sorted.length) - 1)] / 1e6);
    }

    private static Result run(RedisRateLimitStore store, int seconds) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        List<Future<Result>> threads = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            int thread = t;
            threads.add(pool.submit(() -> {
                long[] nanos = new long[SAMPLES_PER_THREAD];
                int count = 0;
                int notDecided = 0;
                for (int i = thread; System.nanoTime() < end && count < nanos.length; i += THREADS) {
                    CounterRequest request = new CounterRequest(KeySpread.key(i % KeySpread.SPREAD.keys()),
                            Algorithm.FIXED_WINDOW, Long.MAX_VALUE / 1_000_000_000L, 60_000);
                    long start = System.nanoTime();
                    StoreResult result = store.acquire(List.of(request));
                    nanos[count++] = System.nanoTime() - start;
                    if (!(result instanceof StoreResult.Decided)) {
                        notDecided++;
                    }
                }
                return new Result(Arrays.copyOf(nanos, count), notDecided);
            }));
        }
        pool.shutdown();
        List<long[]> all = new ArrayList<>();
        int notDecided = 0;
        for (Future<Result> thread : threads) {
            Result result = thread.get();
            all.add(result.nanos());
            notDecided += result.notDecided();
        }
        long[] merged = all.stream().flatMapToLong(Arrays::stream).sorted().toArray();
        return new Result(merged, notDecided);
    }

    private record Result(long[] nanos, int notDecided) {
    }
}
