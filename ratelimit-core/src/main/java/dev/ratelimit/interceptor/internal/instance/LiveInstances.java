package dev.ratelimit.interceptor.internal.instance;

import dev.ratelimit.interceptor.store.RedisBackgroundWork;
import dev.ratelimit.interceptor.internal.background.PeriodicRedisWrite;
import java.time.Duration;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

/**
 * How many instances of this app are alive: this one, and the others whose heartbeats say so, read again
 * every heartbeat interval on a thread of its own, so that asking costs nothing. Until the first read, and
 * while Redis does not answer, the last number known; {@code assumed} before any.
 */
public final class LiveInstances extends RedisBackgroundWork implements IntSupplier {

    private final InstanceDirectory directory;
    private final Supplier<String> self;
    private final String module;
    private final Duration interval;
    private final PeriodicRedisWrite reads;
    private volatile int count;

    /**
     * @param self    this instance's id in the directory, {@code null} until it announced itself
     *                ({@link InstanceHeartbeat#id()})
     * @param assumed the number before the first read ({@code ratelimit.redis-failure.instances})
     */
    public LiveInstances(InstanceDirectory directory, Supplier<String> self, String module, Duration interval,
                         int assumed) {
        this.directory = directory;
        this.self = self;
        this.module = module;
        this.interval = interval;
        this.count = Math.max(1, assumed);
        this.reads = new PeriodicRedisWrite("instance count", "the instances sharing a hot counter may be "
                + "miscounted", this::read);
    }

    @Override
    public int getAsInt() {
        return count;
    }

    @Override
    protected void started() {
        reads.schedule(0, interval.toMillis());
    }

    @Override
    protected void stopping() {
        reads.cancel();
    }

    /** This instance counts itself, whether its heartbeat is listed yet or not. */
    void read() {
        String me = self.get();
        count = 1 + (int) directory.of(module).stream().filter(instance -> !instance.id().equals(me)).count();
    }
}
