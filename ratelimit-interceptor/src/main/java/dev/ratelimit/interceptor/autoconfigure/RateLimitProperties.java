package dev.ratelimit.interceptor.autoconfigure;

import dev.ratelimit.interceptor.internal.lease.HeldLeases;
import dev.ratelimit.interceptor.store.LimiterRedisConnection;
import dev.ratelimit.interceptor.internal.store.batch.BatchingRateLimitStore;
import dev.ratelimit.interceptor.store.FailurePolicy;
import dev.ratelimit.interceptor.web.RejectionBody;
import dev.ratelimit.interceptor.web.ResponseOptions;
import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Configuration of the rate limiter, under {@code ratelimit.*}.
 *
 * @param enabled        whether the interceptor is installed at all
 * @param module         module name of this app; default {@code spring.application.name} without a leading {@code app-}
 * @param store          where counters live: {@code redis}, shared by every instance, or {@code memory}, this process only
 * @param trustedProxies CIDR blocks of the proxies whose forwarding headers are believed; empty means none are
 * @param redisFailure   what happens while Redis does not answer
 * @param nearCache      the denials each instance remembers
 * @param whitelist      clients never limited, on top of those in the config hash
 * @param excludedPaths  Ant patterns of paths never limited (dynamic URL rules included)
 * @param stats          the traffic statistics and heartbeats every instance writes to Redis for the console
 * @param quota          calendar quotas
 * @param concurrency    limits of requests running at once ({@code algorithm = CONCURRENCY})
 * @param allowanceEndpoint whether {@code GET /ratelimit/allowance?rule=...} tells each client what it has left
 *                       of a rule, without counting; off unless set
 * @param denyList       how a client on the deny list is answered
 * @param hotKeys        the counters so busy that each instance takes their permits in batches
 */
@ConfigurationProperties("ratelimit")
public record RateLimitProperties(
        @DefaultValue("true") boolean enabled,
        @Nullable String module,
        @DefaultValue("redis") Store store,
        @DefaultValue Redis redis,
        @DefaultValue NearCache nearCache,
        @DefaultValue Memory memory,
        @DefaultValue Config config,
        @DefaultValue Identity identity,
        @DefaultValue List<String> trustedProxies,
        @DefaultValue RedisFailure redisFailure,
        @DefaultValue Whitelist whitelist,
        @DefaultValue Response response,
        @DefaultValue({"/actuator/**", "/error"}) List<String> excludedPaths,
        @DefaultValue Stats stats,
        @DefaultValue Quota quota,
        @DefaultValue Concurrency concurrency,
        @DefaultValue("false") boolean allowanceEndpoint,
        @DefaultValue DenyList denyList,
        @DefaultValue HotKeys hotKeys) {

    /** How the limiter answers: {@code ratelimit.response.*} and the deny list's status. */
    public ResponseOptions responseOptions() {
        return new ResponseOptions(response.status(), response.headersOnAllowed(), response.legacyHeaders(),
                response.body(), denyList.status());
    }

    /** Where counters live. */
    public enum Store {
        /** In Redis, shared by every instance of the app. */
        REDIS,
        /** In this process only: single-instance apps and tests. */
        MEMORY
    }

    /**
     * @param keyPrefix      first part of every key the limiter writes
     * @param timeout        how long Redis may answer none of the limiter's commands, while a request waits, before
     *                       it is judged silent and the failure policy decides; counted in the waiting request's own
     *                       time, so a pause of this process is not blamed on Redis. The app's
     *                       {@code spring.data.redis.timeout} applies to everything else
     * @param maxWait        the longest a request waits for its decision while Redis answers others; past it the
     *                       failure policy decides, as when Redis is silent
     * @param connectTimeout how long opening the limiter's connection may take, and the longest the app's start
     *                       waits for it and the scripts (it is opened while the app makes its beans)
     * @param url            the Redis the limiter counts and keeps its rules in, as a Redis URI
     *                       ({@code redis://[user:password@]host:port[/database]}, {@code rediss://} for TLS,
     *                       {@code redis-sentinel://}); when not set, the app's Redis: Spring Boot's connection
     *                       details when the app uses Spring Boot's Redis, else {@code spring.data.redis.*}
     */
    public record Redis(@DefaultValue("ratelimit") String keyPrefix,
                        @DefaultValue(LimiterRedisConnection.DEFAULT_SILENCE) Duration timeout,
                        @DefaultValue(LimiterRedisConnection.DEFAULT_MAX_WAIT) Duration maxWait,
                        @DefaultValue("1s") Duration connectTimeout,
                        @Nullable String url) {

        public Redis {
            if (url != null && url.isBlank()) {
                url = null;
            }
            positive("ratelimit.redis.timeout", timeout);
            positive("ratelimit.redis.max-wait", maxWait);
            positive("ratelimit.redis.connect-timeout", connectTimeout);
            if (maxWait.compareTo(timeout) < 0) {
                throw new IllegalArgumentException("ratelimit.redis.max-wait (" + maxWait
                        + ") must not be shorter than ratelimit.redis.timeout (" + timeout + ")");
            }
        }
    }

    /**
     * @param enabled    whether each instance remembers the denials Redis told it until they end, and refuses
     *                   those clients without asking Redis
     * @param maxEntries the most denials remembered at once; the least recently used go first
     */
    public record NearCache(@DefaultValue("true") boolean enabled,
                            @DefaultValue(dev.ratelimit.interceptor.internal.store.nearcache.NearCache.DEFAULT_MAX_ENTRIES)
                            int maxEntries) {

        public NearCache {
            if (maxEntries < 1) {
                throw new IllegalArgumentException("ratelimit.near-cache.max-entries must be at least 1, was " + maxEntries);
            }
        }
    }

    /**
     * @param mode          how requests are decided while Redis does not answer
     * @param threshold     failures in a row (errors or timeouts) that open the circuit
     * @param probeInterval how often Redis is tried while the circuit is open
     * @param instances     the number of instances of the app: in {@code local} mode each one admits this share of a
     *                      limit, so that together they stay near it
     */
    public record RedisFailure(@DefaultValue("local") FailurePolicy mode,
                               @DefaultValue("5") int threshold,
                               @DefaultValue("1s") Duration probeInterval,
                               @DefaultValue("1") int instances) {

        public RedisFailure {
            if (threshold < 1) {
                throw new IllegalArgumentException("ratelimit.redis-failure.threshold must be at least 1, was " + threshold);
            }
            if (instances < 1) {
                throw new IllegalArgumentException("ratelimit.redis-failure.instances must be at least 1, was " + instances);
            }
            positive("ratelimit.redis-failure.probe-interval", probeInterval);
        }
    }

    /**
     * @param ips   addresses and CIDR blocks (IPv4, IPv6) of clients never limited, as the trusted-proxy rules see them
     * @param users user codes never limited; matched only against identities the server established (session,
     *              authenticated principal), never against a request parameter
     */
    public record Whitelist(@DefaultValue List<String> ips, @DefaultValue List<String> users) {
    }

    /** @param maxKeys the most counters the in-process store holds at once; requests of new keys beyond it are admitted uncounted */
    public record Memory(@DefaultValue("100000") int maxKeys) {
    }

    /**
     * @param refreshInterval    how often every instance re-reads the config hash
     * @param checkInterval      how often every instance reads the hash's version alone: what finds a hash that
     *                           Redis lost (a restart, a flush, an eviction), so that it is put back
     * @param initialLoadTimeout how long start-up waits for the first read before going on with defaults
     * @param durableCopy        whether an app with the interception log's database keeps a copy of the hash
     *                           there, put back when Redis and every instance lost it together
     */
    public record Config(@DefaultValue("30s") Duration refreshInterval,
                         @DefaultValue("1s") Duration checkInterval,
                         @DefaultValue("3s") Duration initialLoadTimeout,
                         @DefaultValue("true") boolean durableCopy) {
    }

    /**
     * @param userParameter        request parameter holding the user code; empty to not read one
     * @param userSessionAttribute session attribute holding the user code; empty to not read one
     * @param principal            whether the authenticated principal's name is the user code when neither is present
     * @param ipv6PrefixLength     IPv6 clients are counted per prefix of this length
     */
    public record Identity(@DefaultValue("usercode") String userParameter,
                           @DefaultValue("usercode") String userSessionAttribute,
                           @DefaultValue("true") boolean principal,
                           @DefaultValue("64") int ipv6PrefixLength) {
    }

    /**
     * @param status           HTTP status of a rejection: 429, or 200 for the legacy contract (the body tells)
     * @param headersOnAllowed whether admitted responses of limited endpoints carry {@code RateLimit-Policy}/{@code RateLimit}
     * @param legacyHeaders    whether the fields are also sent as {@code X-RateLimit-Limit}/{@code -Remaining}/{@code -Reset}
     * @param body             body of a rejection: {@code json} ({@code {"error":...,"retryAfter":...}}) or
     *                         {@code problem} (RFC 9457 {@code application/problem+json})
     */
    public record Response(@DefaultValue("429") int status, @DefaultValue("true") boolean headersOnAllowed,
                           @DefaultValue("false") boolean legacyHeaders, @DefaultValue("json") RejectionBody body) {
    }

    /**
     * @param status HTTP status of a request the deny list refuses (its body says {@code "denied":1}; the
     *               body's kind is {@code ratelimit.response.body}'s)
     */
    public record DenyList(@DefaultValue("403") int status) {
    }

    /**
     * @param zone the time zone of calendar quotas ({@code @RateLimit(quota = DAY)}) that name none: where
     *             their day starts at midnight. The same on every instance, so UTC unless set
     */
    public record Quota(@DefaultValue("UTC") ZoneId zone) {
    }

    /**
     * @param lease   the window of a concurrency limit: how long a request's slot outlives an instance that died
     *                holding it (a {@code SIGKILL}, a lost host). Each instance renews the leases of its running
     *                requests once a third of the lease has passed, so a stall of up to two thirds of it loses
     *                nothing; a rule's {@code interval} field overrides it. Whole seconds
     * @param maxHold the longest a request keeps its slot: its lease is no longer renewed after this, so a
     *                request that never ends (a hung thread) frees its slot a lease later
     */
    public record Concurrency(@DefaultValue(HeldLeases.DEFAULT_LEASE) Duration lease,
                              @DefaultValue(HeldLeases.DEFAULT_MAX_HOLD) Duration maxHold) {

        public Concurrency {
            if (lease.toMillis() % 1000 != 0 || lease.toSeconds() < 1) {
                throw new IllegalArgumentException("ratelimit.concurrency.lease must be a whole number of seconds, "
                        + "at least 1, was " + lease);
            }
            if (maxHold.compareTo(lease) < 0) {
                throw new IllegalArgumentException("ratelimit.concurrency.max-hold (" + maxHold
                        + ") must not be shorter than ratelimit.concurrency.lease (" + lease + ")");
            }
        }
    }

    /**
     * @param enabled           whether this instance writes its traffic per rule and its heartbeat to Redis
     * @param flushInterval     how often the traffic counted in memory goes to Redis, in one pipelined write; a
     *                          divisor of 10 s, so that no write spans two of the 10-second buckets
     * @param heartbeatInterval how often this instance announces itself; it disappears from the list three
     *                          intervals after its last heartbeat
     * @param maxBlockedClients the most blocked clients listed per module (those blocked longest are kept), and
     *                          the most this instance notes between two writes
     */
    public record Stats(@DefaultValue("true") boolean enabled, @DefaultValue("5s") Duration flushInterval,
                        @DefaultValue("5s") Duration heartbeatInterval,
                        @DefaultValue("10000") int maxBlockedClients) {

        public Stats {
            positive("ratelimit.stats.flush-interval", flushInterval);
            positive("ratelimit.stats.heartbeat-interval", heartbeatInterval);
            if (maxBlockedClients < 1) {
                throw new IllegalArgumentException("ratelimit.stats.max-blocked-clients must be at least 1, was "
                        + maxBlockedClients);
            }
            if (Duration.ofSeconds(10).toMillis() % flushInterval.toMillis() != 0) {
                throw new IllegalArgumentException("ratelimit.stats.flush-interval must divide 10s (1s, 2s, 5s, "
                        + "10s, 500ms...), was " + flushInterval);
            }
        }
    }

    private static void positive(String property, Duration value) {
        if (value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(property + " must be positive, was " + value);
        }
    }

    /**
     * @param enabled       whether an instance takes the permits of a hot counter in batches, and admits its
     *                      requests from them without a Redis call
     * @param threshold     requests per second on one instance from which a counter is hot
     * @param batchFor      how much of a hot counter's traffic on an instance one batch covers, at its rate there
     * @param maxHold       the longest an instance keeps permits it does not use before it gives them back: how long
     *                      another instance's clients may be refused while permits wait here
     * @param excludedRules rules whose counters are never batched, as {@code <module>.<rule>}; the GLOBAL limits of a
     *                      module share the counter {@code <module>._global}
     */
    public record HotKeys(@DefaultValue("true") boolean enabled,
                          @DefaultValue(BatchingRateLimitStore.DEFAULT_THRESHOLD) long threshold,
                          @DefaultValue(BatchingRateLimitStore.DEFAULT_BATCH_FOR) Duration batchFor,
                          @DefaultValue(BatchingRateLimitStore.DEFAULT_MAX_HOLD) Duration maxHold,
                          @DefaultValue List<String> excludedRules) {

        public HotKeys {
            if (threshold < 1) {
                throw new IllegalArgumentException("ratelimit.hot-keys.threshold must be at least 1, was " + threshold);
            }
            positive("ratelimit.hot-keys.batch-for", batchFor);
            positive("ratelimit.hot-keys.max-hold", maxHold);
            if (maxHold.compareTo(batchFor) < 0) {
                throw new IllegalArgumentException("ratelimit.hot-keys.max-hold (" + maxHold
                        + ") must not be shorter than ratelimit.hot-keys.batch-for (" + batchFor + ")");
            }
        }
    }
}
