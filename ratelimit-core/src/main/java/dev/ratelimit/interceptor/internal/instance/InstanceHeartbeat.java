package dev.ratelimit.interceptor.internal.instance;

import dev.ratelimit.interceptor.store.RedisBackgroundWork;
import dev.ratelimit.interceptor.store.RedisKeys;
import dev.ratelimit.interceptor.internal.background.PeriodicRedisWrite;
import dev.ratelimit.interceptor.store.BackgroundCommands;
import io.lettuce.core.Range;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationListener;

/**
 * Announces this instance in Redis once it is ready, and again every {@code interval}: a hash with
 * its state that expires after {@link #ttl} unless renewed, and its entry in the set of instances.
 * The set's members are the hashes' keys. A stopped app removes both; one that dies leaves a hash
 * that expires, and an entry that readers skip and a later heartbeat of any instance prunes.
 */
public class InstanceHeartbeat extends RedisBackgroundWork implements ApplicationListener<ApplicationReadyEvent> {

    private static final Logger log = LoggerFactory.getLogger(InstanceHeartbeat.class);
    /** Heartbeats an instance may miss, to a slow Redis or a long pause, before it disappears. */
    private static final int MISSES_TOLERATED = 2;

    private final BackgroundCommands redis;
    private final RedisKeys keys;
    private final InstanceState state;
    private final Duration interval;
    private final Clock clock;
    private final Instant startedAt;
    private final AtomicReference<Announcement> announced = new AtomicReference<>();
    private final PeriodicRedisWrite writes = new PeriodicRedisWrite("heartbeat",
            "this instance may disappear from the console until Redis answers", this::write);

    public InstanceHeartbeat(BackgroundCommands redis, RedisKeys keys, InstanceState state, Duration interval,
                             Clock clock) {
        this.redis = redis;
        this.keys = keys;
        this.state = state;
        this.interval = interval;
        this.clock = clock;
        this.startedAt = clock.instant();
    }

    /** How long an instance stays listed after its last heartbeat. */
    public Duration ttl() {
        return interval.multipliedBy(MISSES_TOLERATED + 1);
    }

    /** Starts on the first ready event only: a child context's event reaches its parent's listeners too. */
    @Override
    public void onApplicationEvent(ApplicationReadyEvent event) {
        int port = event.getApplicationContext().getEnvironment().getProperty("local.server.port", Integer.class, 0);
        if (announced.compareAndSet(null, new Announcement(state.module(), host(), port))) {
            writes.schedule(0, interval.toMillis());
        }
    }

    /** This instance's id in the list of instances, once it announced itself; {@code null} before. */
    public @Nullable String id() {
        Announcement me = announced.get();
        return me == null ? null : me.id();
    }

    /** This instance's state, once it listens. */
    private void write() {
        Announcement me = announced.get();
        if (me == null) {
            return;
        }
        RunningInstance instance = new RunningInstance(me.id(), me.module(), me.host(), me.port(), me.pid(),
                version(), startedAt, state.circuitState(), state.store(), state.nearCacheSize(), state.leasesHeld(),
                state.hotCounters(), state.permitsHeld(), state.configVersion(), clock.instant());
        long now = clock.millis();
        String key = keys.instance(me.module(), me.id());
        String index = keys.instances();
        redis.pipelined(commands -> List.of(
                commands.hset(key, instance.toHash()),
                commands.pexpire(key, ttl().toMillis()),
                commands.zadd(index, now, key),
                // entries of instances silent for much longer than any TTL: died without removing themselves
                commands.zremrangebyscore(index, Range.from(Range.Boundary.unbounded(),
                        Range.Boundary.including(now - Duration.ofDays(1).toMillis()))),
                commands.pexpire(index, Duration.ofDays(1).toMillis())));
    }

    /** Heartbeats begin once the app is ready and listens on its port; they end here. */
    @Override
    protected void stopping() {
        writes.cancel();
        Announcement me = announced.get();
        if (me == null) {
            return;
        }
        try {
            String key = keys.instance(me.module(), me.id());
            redis.sync().del(key);
            redis.sync().zrem(keys.instances(), key);
        } catch (RuntimeException e) {
            log.debug("Rate limit heartbeat: cannot remove this instance, it expires in {}: {}", ttl(), e.toString());
        }
    }

    private static String version() {
        String version = InstanceHeartbeat.class.getPackage().getImplementationVersion();
        return version == null ? "dev" : version;
    }

    private static String host() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "unknown";
        }
    }

    /** Who this instance is, fixed once it listens. */
    private record Announcement(String module, String host, int port) {

        long pid() {
            return ProcessHandle.current().pid();
        }

        String id() {
            return host + ":" + port + ":" + pid();
        }

    }
}
