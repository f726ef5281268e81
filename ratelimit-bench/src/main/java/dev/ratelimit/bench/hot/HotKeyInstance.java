package dev.ratelimit.bench.hot;

import com.sun.management.OperatingSystemMXBean;
import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.autoconfigure.RateLimitProperties;
import dev.ratelimit.interceptor.store.CounterRequest;
import dev.ratelimit.interceptor.store.LimiterRedisConnection;
import dev.ratelimit.interceptor.store.RateLimitStore;
import dev.ratelimit.interceptor.store.RedisRateLimitStore;
import dev.ratelimit.interceptor.store.StoreResult;
import dev.ratelimit.interceptor.internal.store.batch.BatchingRateLimitStore;
import dev.ratelimit.interceptor.internal.store.batch.HeldPermits;
import dev.ratelimit.interceptor.internal.store.chain.RedisStoreChain;
import dev.ratelimit.interceptor.internal.store.nearcache.NearCache;
import dev.ratelimit.interceptor.testsupport.ShippedProperties;
import dev.ratelimit.interceptor.testsupport.Stores;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.IntStream;

/**
 * One app instance of the hot-key benchmark ({@code HotKeyRun}), in a JVM of its own with its own Redis
 * connection: the store chain the auto-configuration builds with the shipped defaults (near cache, then, when
 * {@code batched}, the batching store and its upkeep, then Redis; without the failover store, so that a decision
 * Redis does not make in time shows as not decided instead of being made in process), driven by
 * {@code threads} client threads in a closed loop, one decision in flight each.
 *
 * <pre>
 * HotKeyInstance &lt;redis port&gt; batched|unbatched &lt;threads&gt; &lt;live instances&gt;
 * </pre>
 * It prints {@code hot-key ready} once connected, then reads commands from standard input:
 * {@code run hot|users <seconds>} decides for that long on one counter ({@code hot}: a GLOBAL-like fixed
 * window of 10⁹ per hour, never reached) or on {@link #USERS} counters of the same limit ({@code users}: each far
 * below the hot-key threshold) and answers {@code hot-key done key=value ...}; {@code exit} gives back what it
 * holds and stops. Other output (logging) does not start with {@code hot-key}.
 */
public final class HotKeyInstance {

    /** The prefix of every line of the protocol on standard output. */
    public static final String PREFIX = "hot-key ";
    public static final int USERS = 10_000;
    static final long COUNT = 1_000_000_000L;
    static final long WINDOW_MILLIS = 3_600_000L;

    private static final RateLimitProperties DEFAULTS = ShippedProperties.DEFAULTS;

    private final RateLimitStore limiter;
    private final BatchingRateLimitStore batching;
    private final int threads;
    private final List<List<CounterRequest>> hot;
    private final List<List<CounterRequest>> users;

    private HotKeyInstance(RateLimitStore limiter, BatchingRateLimitStore batching, int threads, String stack) {
        this.limiter = limiter;
        this.batching = batching;
        this.threads = threads;
        // Counters of their own per chain, so that the batched and the unbatched runs never share one.
        String prefix = "ratelimit:counter:bench:" + stack + ":";
        this.hot = List.of(List.of(request(prefix + "_global:GLOBAL")));
        this.users = IntStream.range(0, USERS)
                .mapToObj(i -> List.of(request(prefix + "HotKeyController.user:USER:user-" + i))).toList();
    }

    private static CounterRequest request(String key) {
        return new CounterRequest(key, Algorithm.FIXED_WINDOW, COUNT, WINDOW_MILLIS);
    }

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        boolean batched = switch (args[1]) {
            case "batched" -> true;
            case "unbatched" -> false;
            default -> throw new IllegalArgumentException("batched or unbatched, not " + args[1]);
        };
        int threads = Integer.parseInt(args[2]);
        int sharers = Integer.parseInt(args[3]);

        LimiterRedisConnection connection = Stores.connection(port);
        RedisRateLimitStore redis = new RedisRateLimitStore(connection);
        redis.open(DEFAULTS.redis().connectTimeout());

        // The limiter's chain without the failure policy: a decision Redis does not make in time is counted as not
        // decided here, where the policy would decide it in process (and, once its circuit opened, every later one).
        RedisStoreChain chain = RedisStoreChain.on(redis);
        HeldPermits upkeep = new HeldPermits();
        if (batched) {
            RateLimitProperties.HotKeys hotKeys = DEFAULTS.hotKeys();
            chain = chain.batchingHotCounters(upkeep, () -> sharers, hotKeys.threshold(), hotKeys.batchFor(),
                    hotKeys.maxHold());
            upkeep.start();
        }
        HotKeyInstance instance = new HotKeyInstance(chain.behind(new NearCache(DEFAULTS.nearCache().maxEntries())),
                chain.batches(), threads, args[1]);

        System.out.println(PREFIX + "ready");
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line = in.readLine(); line != null && !line.equals("exit"); line = in.readLine()) {
            String[] command = line.trim().split(" ");
            if (command[0].equals("run")) {
                System.out.println(PREFIX + "done " + instance.run(command[1].equals("hot") ? instance.hot
                        : instance.users, Double.parseDouble(command[2])));
            }
        }
        if (batched) {
            upkeep.stop(); // gives back every permit held
        }
        connection.destroy();
        System.exit(0);
    }

    /** Decides on {@code counters} from every thread for {@code seconds}: what it did, as {@code key=value ...}. */
    private String run(List<List<CounterRequest>> counters, double seconds) throws InterruptedException {
        OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        Map<String, Object> before = batchFigures();
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch started = new CountDownLatch(threads);
        long[][] counts = new long[threads][3]; // decisions, admitted, not decided
        Thread[] clients = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            int thread = t;
            clients[t] = new Thread(() -> {
                long[] mine = counts[thread];
                int next = (int) ((long) thread * counters.size() / threads);
                started.countDown();
                while (!stop.get()) {
                    StoreResult result = limiter.acquire(counters.get(next));
                    next = next + 1 == counters.size() ? 0 : next + 1;
                    mine[0]++;
                    if (result instanceof StoreResult.Decided decided) {
                        if (decided.decisions().get(0).allowed()) {
                            mine[1]++;
                        }
                    } else {
                        mine[2]++;
                    }
                }
            }, "client-" + t);
        }
        long cpuBefore = os.getProcessCpuTime();
        for (Thread client : clients) {
            client.start();
        }
        started.await();
        long start = System.nanoTime();
        LockSupport.parkNanos((long) (seconds * 1e9));
        stop.set(true);
        for (Thread client : clients) {
            client.join();
        }
        double elapsed = (System.nanoTime() - start) / 1e9;
        long cpu = os.getProcessCpuTime() - cpuBefore;
        // Permits still held go back within the longest hold: inside this run's figures, not the next one's.
        long waitUntil = System.nanoTime() + 2 * DEFAULTS.hotKeys().maxHold().toNanos() + 100_000_000L;
        while (batching != null && batching.permitsHeld() > 0 && System.nanoTime() < waitUntil) {
            Thread.sleep(10);
        }
        Map<String, Object> after = batchFigures();
        long decisions = 0;
        long admitted = 0;
        long notDecided = 0;
        for (long[] mine : counts) {
            decisions += mine[0];
            admitted += mine[1];
            notDecided += mine[2];
        }
        StringBuilder out = new StringBuilder();
        out.append("decisions=").append(decisions).append(" admitted=").append(admitted)
                .append(" notDecided=").append(notDecided).append(" seconds=").append(elapsed)
                .append(" cpuNanos=").append(cpu);
        for (String figure : List.of("decidedFromBatches", "batchesTaken", "permitsTaken", "permitsGivenBack")) {
            out.append(' ').append(figure).append('=')
                    .append(((Number) after.get(figure)).longValue() - ((Number) before.get(figure)).longValue());
        }
        return out.toString();
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> batchFigures() {
        if (batching == null) {
            return Map.of("decidedFromBatches", 0L, "batchesTaken", 0L, "permitsTaken", 0L, "permitsGivenBack", 0L);
        }
        return (Map<String, Object>) batching.describe().details().get("hotKeys");
    }
}
