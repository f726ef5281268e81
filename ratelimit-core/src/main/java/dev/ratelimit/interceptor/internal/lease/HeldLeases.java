package dev.ratelimit.interceptor.internal.lease;

import dev.ratelimit.interceptor.rule.RuleId;
import dev.ratelimit.interceptor.store.CounterRequest;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The leases this instance holds for its requests still running under a concurrency limit: it names each
 * new lease, unique across instances ({@code <host>:<pid>:<random>:<sequence>}, so that a member of a lease
 * set tells who holds it), and says which are due for renewal: those past a third of their lease since
 * they were taken or last renewed, and held for less than {@code maxHold}. A lease held longer is no
 * longer renewed (a request that never ends must not keep its slot forever) and expires a lease later.
 * Times are this process' monotonic clock, given by the caller.
 */
public final class HeldLeases {

    /**
     * The shipped {@code ratelimit.concurrency.lease}: how long a slot outlives an instance that died holding it.
     * The defaults are declared here, with what they tune, as the text a property takes, so the starter's
     * defaults and this core's tests are one.
     */
    public static final String DEFAULT_LEASE = "10s";
    /** The shipped {@code ratelimit.concurrency.max-hold}. */
    public static final String DEFAULT_MAX_HOLD = "10m";

    private static final Logger log = LoggerFactory.getLogger(HeldLeases.class);

    private final String instance;
    private final long maxHoldNanos;
    private final AtomicLong sequence = new AtomicLong();
    private final ConcurrentHashMap<String, Held> held = new ConcurrentHashMap<>();
    private final LongAdder renewals = new LongAdder();
    private final LongAdder heldTooLong = new LongAdder();

    /** @param maxHold the longest a lease is renewed ({@code ratelimit.concurrency.max-hold}) */
    public HeldLeases(Duration maxHold) {
        this(instanceName(), maxHold);
    }

    HeldLeases(String instance, Duration maxHold) {
        this.instance = instance;
        this.maxHoldNanos = maxHold.toNanos();
    }

    /** A new lease's id, never given before by any instance. */
    public String newId() {
        return instance + ":" + Long.toString(sequence.incrementAndGet(), 36);
    }

    /** A request of {@code rule} took the lease {@code lease.lease()} at {@code nowNanos}. */
    public void taken(RuleId rule, CounterRequest lease, long nowNanos) {
        held.put(lease.lease(), new Held(rule, lease, nowNanos, nowNanos));
    }

    /** The request ended: its lease is no longer renewed. */
    public void released(CounterRequest lease) {
        held.remove(lease.lease());
    }

    /**
     * The leases to renew at {@code nowNanos}, each counted as renewed then; those held past
     * {@code maxHold} are dropped instead, with one warning per rule.
     */
    public List<CounterRequest> due(long nowNanos) {
        if (held.isEmpty()) {
            return List.of();
        }
        List<CounterRequest> due = new ArrayList<>();
        held.forEach((id, lease) -> {
            if (nowNanos - lease.takenAtNanos() >= maxHoldNanos) {
                if (held.remove(id, lease)) {
                    heldTooLong.increment();
                    log.warn("Rate limit {}: a request has held its concurrency slot for {}; its lease is no longer "
                            + "renewed and expires within {} ms (ratelimit.concurrency.max-hold)", lease.rule(),
                            Duration.ofNanos(maxHoldNanos), lease.request().windowMillis());
                }
            } else if (nowNanos - lease.renewedAtNanos() >= lease.request().windowMillis() * 1_000_000 / 3
                    && held.replace(id, lease, lease.renewedAt(nowNanos))) {
                due.add(lease.request());
            }
        });
        renewals.add(due.size());
        return due;
    }

    /** The number of leases held now. */
    public int size() {
        return held.size();
    }

    /** What the actuator endpoint shows: the leases held now, by rule, and how many were renewed or held too long. */
    public Map<String, Object> describe() {
        Map<String, Long> byRule = new TreeMap<>();
        held.values().forEach(lease -> byRule.merge(lease.rule().toString(), 1L, Long::sum));
        Map<String, Object> description = new LinkedHashMap<>();
        description.put("instance", instance);
        description.put("held", byRule.values().stream().mapToLong(Long::longValue).sum());
        description.put("heldByRule", byRule);
        description.put("renewals", renewals.sum());
        description.put("heldTooLong", heldTooLong.sum());
        description.put("maxHold", Duration.ofNanos(maxHoldNanos).toString());
        return description;
    }

    private static String instanceName() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            host = "unknown";
        }
        byte[] random = new byte[4];
        new SecureRandom().nextBytes(random);
        return host + ":" + ProcessHandle.current().pid() + ":" + HexFormat.of().formatHex(random);
    }

    /** One lease held, and when it was taken and last renewed. */
    private record Held(RuleId rule, CounterRequest request, long takenAtNanos, long renewedAtNanos) {

        Held renewedAt(long nowNanos) {
            return new Held(rule, request, takenAtNanos, nowNanos);
        }
    }
}
