package dev.ratelimit.interceptor;

/**
 * The Redis key layout, in one place. {@code prefix} is {@code ratelimit.redis.key-prefix}.
 *
 * <pre>
 * {p}:counter:{module}:{rule}:{dimension}:{identity}   counters, every key with a TTL; {dimension} is
 *                                                      e.g. USER for a fixed window, USER@TOKEN_BUCKET otherwise
 * {p}:sysconfig                                        switches and dynamic rules (hash)
 * {p}:apiindex:{module}                                the handler methods of a module (hash)
 * {p}:apiindex:modules                                 modules that reported an index (set)
 * {p}:apiindex-staging:{module}:{token}                an index being written, renamed onto the index when complete
 * {p}:config-changed                                   pub/sub channel, a message after each config write
 * </pre>
 */
public record RedisKeys(String prefix) {

    public RedisKeys {
        if (prefix == null || prefix.isBlank()) {
            throw new IllegalArgumentException("ratelimit.redis.key-prefix must not be blank");
        }
    }

    /** The rule part of GLOBAL counters: every GLOBAL limit of a module shares one counter. */
    public static final String GLOBAL_RULE = "_global";

    /**
     * A counter's key. Every algorithm but the default fixed window has its name in the key
     * ({@code USER@TOKEN_BUCKET}): each keeps a different Redis type there, so a rule whose algorithm
     * changes with a deploy, two instances of a rolling deploy, or two GLOBAL limits with different
     * algorithms never meet a key of the wrong type; each just starts a counter of its own.
     */
    public String counter(String module, String rule, Dimension dimension, Algorithm algorithm, String identity) {
        String counterRule = dimension == Dimension.GLOBAL ? GLOBAL_RULE : rule;
        String kind = algorithm == Algorithm.FIXED_WINDOW ? dimension.name() : dimension.name() + "@" + algorithm.name();
        return prefix + ":counter:" + module + ":" + counterRule + ":" + kind + ":" + identity;
    }

    public String sysconfig() {
        return prefix + ":sysconfig";
    }

    public String apiIndex(String module) {
        return prefix + ":apiindex:" + module;
    }

    /**
     * Where one writer builds a new index of {@code module} before renaming it onto {@link #apiIndex}:
     * {@code token} keeps two instances starting at once from writing into each other's copy.
     */
    public String apiIndexStaging(String module, String token) {
        return prefix + ":apiindex-staging:" + module + ":" + token;
    }

    public String apiIndexModules() {
        return prefix + ":apiindex:modules";
    }

    public String configChangedChannel() {
        return prefix + ":config-changed";
    }
}
