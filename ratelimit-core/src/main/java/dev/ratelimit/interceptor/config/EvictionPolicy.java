package dev.ratelimit.interceptor.config;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Clock;
import java.time.Duration;
import dev.ratelimit.interceptor.store.BackgroundCommands;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.cluster.api.sync.RedisAdvancedClusterCommands;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import java.time.Instant;
import java.util.Map;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Redis' {@code maxmemory-policy}, as it bears on what operators set: the config hash and the API index
 * carry no TTL, while every counter does. Under an {@code allkeys-*} policy a full Redis may evict them;
 * under a {@code volatile-*} one it evicts counters only. Read at start-up (one warning when the policy
 * may evict them) and for the health indicator, the actuator endpoint and the console, at most once a
 * minute. A managed Redis may refuse {@code CONFIG GET}: then the reading says it could not be read.
 */
public class EvictionPolicy {

    private static final Logger log = LoggerFactory.getLogger(EvictionPolicy.class);
    static final Duration FRESH_FOR = Duration.ofMinutes(1);
    private static final String POLICY = "maxmemory-policy";

    private final BackgroundCommands redis;
    private final String hashKey;
    private final Clock clock;
    private volatile @Nullable Reading last;

    /** @param hashKey the config hash's key, for the warning */
    public EvictionPolicy(BackgroundCommands redis, String hashKey, Clock clock) {
        this.redis = redis;
        this.hashKey = hashKey;
        this.clock = clock;
    }

    /** The policy as read at most a minute ago. Never throws: a Redis that does not answer is a reading too. */
    public Reading current() {
        Reading reading = last;
        if (reading == null || reading.readAt().plus(FRESH_FOR).isBefore(clock.instant())) {
            try {
                reading = read();
            } catch (RuntimeException e) {
                reading = new Reading(null, "Redis does not answer: " + e.getMessage(), clock.instant());
            }
            last = reading;
        }
        return reading;
    }

    /**
     * Reads it now and warns once when it may evict the config hash: at start-up, retried while Redis does
     * not answer.
     *
     * @throws io.lettuce.core.RedisException when Redis does not answer
     */
    public void check() {
        Reading reading = read();
        last = reading;
        if (reading.evictsConfig()) {
            log.warn("Redis runs with maxmemory-policy {}: when full it may evict any key, the config hash {} (operators' "
                    + "rules) and the API index among them, which have no TTL. Every counter has a TTL, so "
                    + "volatile-lru (or another volatile-* policy, or noeviction) evicts counters only. An instance "
                    + "that finds the hash gone puts its snapshot back, but set the policy: CONFIG SET "
                    + "maxmemory-policy volatile-lru", reading.policy(), hashKey);
        } else if (reading.policy() == null) {
            log.info("Could not read Redis' maxmemory-policy ({}); make sure it is a volatile-* policy or noeviction, "
                    + "so that a full Redis never evicts the config hash {}", reading.problem(), hashKey);
        }
    }

    private Reading read() {
        try {
            // On a Cluster each master answers for itself.
            TreeSet<String> policies = new TreeSet<>();
            RedisClusterCommands<String, String> commands = redis.sync();
            if (commands instanceof RedisAdvancedClusterCommands<String, String> cluster) {
                cluster.upstream().commands().configGet(POLICY).forEach(config -> add(config, policies));
            } else {
                add(commands.configGet(POLICY), policies);
            }
            return policies.isEmpty() ? new Reading(null, "CONFIG GET answered nothing", clock.instant())
                    : new Reading(String.join(",", policies), null, clock.instant());
        } catch (RedisCommandExecutionException e) {
            return new Reading(null, "CONFIG GET refused: " + e.getMessage(), clock.instant());
        }
    }

    private static void add(Map<String, String> config, TreeSet<String> policies) {
        String policy = config == null ? null : config.get(POLICY);
        if (policy != null) {
            policies.add(policy);
        }
    }

    /**
     * @param policy  the policy, several comma-separated when Cluster nodes differ; {@code null} when not read
     * @param problem why it could not be read, or {@code null}
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Reading(@Nullable String policy, @Nullable String problem, Instant readAt) {

        /** Whether a full Redis may evict keys without a TTL: the config hash, the API index. */
        @JsonProperty("evictsConfig")
        public boolean evictsConfig() {
            return policy != null && policy.contains("allkeys-");
        }
    }
}
