package dev.ratelimit.interceptor.internal.instance;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * One running instance of an app, as its last heartbeat described it.
 *
 * @param id            unique while it runs: {@code <host>:<port>:<pid>}
 * @param version       the limiter's version, or {@code dev} when run from classes
 * @param circuit       {@code closed}, {@code open}, or {@code none} without a Redis store
 * @param store         where its counters live ({@code redis}, {@code memory}, or an app's own store)
 * @param nearCache     the denials it remembers now; -1 without a near cache
 * @param leases        the leases it holds now: its requests running under concurrency limits; -1 when its
 *                      heartbeat does not say (an older version)
 * @param hotCounters   the counters whose permits it takes in batches now
 * @param permitsHeld   the permits of those counters it holds now, not used yet
 * @param configVersion the version of the config snapshot it applies (0: never read)
 * @param heartbeat     when it last announced itself
 */
public record RunningInstance(String id, String module, String host, int port, long pid, String version,
                              Instant startedAt, String circuit, String store, int nearCache, int leases,
                              int hotCounters, long permitsHeld, long configVersion, Instant heartbeat) {

    /** Whether requests are decided without Redis now. */
    public boolean circuitOpen() {
        return "open".equals(circuit);
    }

    Map<String, String> toHash() {
        Map<String, String> hash = new LinkedHashMap<>();
        hash.put("id", id);
        hash.put("module", module);
        hash.put("host", host);
        hash.put("port", Integer.toString(port));
        hash.put("pid", Long.toString(pid));
        hash.put("version", version);
        hash.put("startedAt", startedAt.toString());
        hash.put("circuit", circuit);
        hash.put("store", store);
        hash.put("nearCache", Integer.toString(nearCache));
        hash.put("leases", Integer.toString(leases));
        hash.put("hotCounters", Integer.toString(hotCounters));
        hash.put("permitsHeld", Long.toString(permitsHeld));
        hash.put("configVersion", Long.toString(configVersion));
        hash.put("heartbeat", heartbeat.toString());
        return hash;
    }

    /** @return {@code null} for a hash that is gone or not one of ours */
    static @Nullable RunningInstance fromHash(@Nullable Map<String, String> hash) {
        if (hash == null || !hash.containsKey("id") || !hash.containsKey("module") || !hash.containsKey("host")
                || !hash.containsKey("heartbeat")) {
            return null;
        }
        try {
            return new RunningInstance(hash.get("id"), hash.get("module"), hash.get("host"),
                    Integer.parseInt(hash.getOrDefault("port", "0")), Long.parseLong(hash.getOrDefault("pid", "0")),
                    hash.getOrDefault("version", "?"), Instant.parse(hash.get("startedAt")),
                    hash.getOrDefault("circuit", "none"), hash.getOrDefault("store", "?"),
                    Integer.parseInt(hash.getOrDefault("nearCache", "-1")),
                    Integer.parseInt(hash.getOrDefault("leases", "-1")),
                    Integer.parseInt(hash.getOrDefault("hotCounters", "0")),
                    Long.parseLong(hash.getOrDefault("permitsHeld", "0")),
                    Long.parseLong(hash.getOrDefault("configVersion", "0")), Instant.parse(hash.get("heartbeat")));
        } catch (RuntimeException e) {
            return null;
        }
    }
}
