package dev.ratelimit.interceptor.store;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.Dimension;
import dev.ratelimit.interceptor.rule.RuleId;

/**
 * The Redis key layout, in one place. {@code prefix} is {@code ratelimit.redis.key-prefix}.
 *
 * <pre>
 * {p}:counter:{module}:{rule}:{dimension}:{identity}   counters, every key with a TTL; {dimension} is
 *                                                      e.g. USER for a fixed window, USER@TOKEN_BUCKET otherwise
 * {p}:sysconfig                                        switches and dynamic rules (hash)
 * {p}:{apiindex}:{module}                              the handler methods of a module (hash)
 * {p}:{apiindex}:modules                               modules that reported an index (set)
 * {p}:{apiindex}-staging:{module}:{token}              an index being written, renamed onto the index when complete
 * {p}:config-changed                                   pub/sub channel, a message after each config write
 * {p}:console:revoked:{session}                         a console login ended by a logout, until it would expire
 * {p}:stats:{module}:{size}:{start}                    a module's traffic in one time bucket (hash)
 * {p}:instance:{module}:{id}                           one running instance, until its heartbeat stops (hash)
 * {p}:instances                                        the instance keys, scored by last heartbeat (sorted set)
 * {p}:blocked:{module}                                 clients blocked now, scored by when the block ends (sorted set)
 * {p}:unblocked:{module}                               clients an operator unblocked, scored by when (sorted set, 10 min)
 * </pre>
 *
 * <p>On a Redis Cluster every script and every multi-key command must touch keys of one slot. Counter
 * and config scripts touch one key each. The API index keys carry the literal hash tag
 * {@value #API_INDEX_TAG} (e.g. {@code ratelimit:{apiindex}:orders}), so they all share one slot and a
 * module's new index replaces the old one, and joins the set of modules, in one atomic script. The
 * whole index is a few kilobytes written at start-up, so one slot for it costs nothing.
 */
public record RedisKeys(String prefix) {

    public RedisKeys {
        if (prefix == null || prefix.isBlank()) {
            throw new IllegalArgumentException("ratelimit.redis.key-prefix must not be blank");
        }
    }

    /** The rule part of GLOBAL counters: every GLOBAL limit of a module shares one counter. */
    public static final String GLOBAL_RULE = "_global";

    /** The Redis Cluster hash tag of every API index key: they must share one slot. */
    public static final String API_INDEX_TAG = "{apiindex}";

    /**
     * A counter's key. Every algorithm but the default fixed window has its name in the key
     * ({@code USER@TOKEN_BUCKET}): each keeps a different Redis type there, so a rule whose algorithm
     * changes with a deploy, two instances of a rolling deploy, or two GLOBAL limits with different
     * algorithms never meet a key of the wrong type; each just starts a counter of its own.
     */
    public String counter(RuleId rule, Dimension dimension, Algorithm algorithm, String identity) {
        return counterStart(rule, dimension, algorithm) + identity;
    }

    /** What a {@link #counter} key holds before its identity; the same for every client of a limit. */
    public String counterStart(RuleId rule, Dimension dimension, Algorithm algorithm) {
        String counterRule = dimension == Dimension.GLOBAL ? GLOBAL_RULE : rule.rule();
        String kind = algorithm == Algorithm.FIXED_WINDOW ? dimension.name() : dimension.name() + "@" + algorithm.name();
        return counterPrefix() + escaped(rule.module()) + ":" + escaped(counterRule) + ":" + kind + ":";
    }

    /**
     * The penalty hash of a counter: in the counter's Cluster slot, so that one script
     * reads both. A counter key has no braces of its own (identity parts with braces are hashed), unless
     * the prefix brings a hash tag, which the penalty key then shares.
     */
    public static String penalty(String counterKey) {
        int open = counterKey.indexOf('{');
        boolean tagged = open >= 0 && counterKey.indexOf('}', open) > open + 1;
        return tagged ? counterKey + ":penalty" : "{" + counterKey + "}:penalty";
    }

    /**
     * The start of every counter key of one rule: {@code <module>._global} names the counter the GLOBAL limits
     * of a module share.
     */
    public String counterPrefix(RuleId rule) {
        return counterPrefix() + escaped(rule.module()) + ":" + escaped(rule.rule()) + ":";
    }

    /** The start of every counter key. */
    public String counterPrefix() {
        return prefix + ":counter:";
    }

    /** What follows the module in a counter key of the module: {@code <rule>:<dimension>:<identity>}. */
    public String counterWithinModule(String module, String counterKey) {
        return counterKey.substring(counterPrefix().length() + escaped(module).length() + 1);
    }

    /** The counter key of a module's {@link #counterWithinModule} part. */
    public String counterOf(String module, String withinModule) {
        return counterPrefix() + escaped(module) + ":" + withinModule;
    }

    /**
     * The clients of a module blocked now, across its instances (a sorted set): member the counter
     * key's {@link #counterWithinModule} part, score when the block ends (epoch ms). The module is the
     * hash tag.
     */
    public String blocked(String module) {
        return prefix + ":blocked:{" + escaped(module) + "}";
    }

    /** The clients of a module an operator unblocked lately, in the slot of {@link #blocked}. */
    public String unblocked(String module) {
        return prefix + ":unblocked:{" + escaped(module) + "}";
    }

    /**
     * A module or rule name with {@code %}, braces and colons percent-encoded. On Redis Cluster a
     * {@code {...}} in a key is a hash tag that picks the slot, and a rule name (a {@code dynuri} pattern
     * with a path variable) must not put every counter of the rule on one node; without colons in them,
     * a counter key splits back into its parts, the identity being all after the fourth colon. Identities
     * never carry braces ({@code DimensionKeys} hashes them), so no client picks its slot either.
     */
    public static String escaped(String part) {
        for (int i = 0; i < part.length(); i++) {
            char c = part.charAt(i);
            if (c == '%' || c == '{' || c == '}' || c == ':') {
                return part.replace("%", "%25").replace("{", "%7B").replace("}", "%7D").replace(":", "%3A");
            }
        }
        return part;
    }

    /** The name {@link #escaped} encoded. */
    public static String unescaped(String part) {
        if (part.indexOf('%') < 0) {
            return part;
        }
        return part.replace("%3A", ":").replace("%7D", "}").replace("%7B", "{").replace("%25", "%");
    }

    public String sysconfig() {
        return prefix + ":sysconfig";
    }

    public String apiIndex(String module) {
        return prefix + ":" + API_INDEX_TAG + ":" + module;
    }

    /**
     * Where one writer builds a new index of {@code module} before renaming it onto {@link #apiIndex}:
     * {@code token} keeps two instances starting at once from writing into each other's copy.
     */
    public String apiIndexStaging(String module, String token) {
        return prefix + ":" + API_INDEX_TAG + "-staging:" + module + ":" + token;
    }

    public String apiIndexModules() {
        return prefix + ":" + API_INDEX_TAG + ":modules";
    }

    /**
     * The traffic of a module in one time bucket: field {@code <rule>|<outcome>}, the count. The module is
     * the hash tag, so all buckets of a module share a node on Redis Cluster.
     *
     * @param granularity e.g. {@code 10s}, {@code 1m}
     * @param bucketStart the bucket's start, in epoch seconds
     */
    public String trafficBucket(String module, String granularity, long bucketStart) {
        return prefix + ":stats:{" + escaped(module) + "}:" + granularity + ":" + bucketStart;
    }

    /**
     * The demand one rule saw in one time bucket, for the limit advisor: field a demand bin ({@code <count>}, or
     * {@code <start>+<width>} above the exact counts), how many times a client's window reached a count in it.
     * The module is the hash tag. {@code :refused} beside it: the requests refused without Redis (a near cache's
     * denials) per client window, {@code <client>|<window end>} and the highest count Redis gave that window,
     * {@code <client>|<window end>|n}; {@code :top} the clients with the highest demand (a sorted set).
     */
    public String demandBucket(RuleId rule, String granularity, long bucketStart) {
        return prefix + ":advice:{" + escaped(rule.module()) + "}:" + escaped(rule.rule()) + ":" + granularity + ":"
                + bucketStart;
    }

    /** One running instance, as it announced itself (a hash), until its heartbeat stops. */
    public String instance(String module, String id) {
        return prefix + ":instance:{" + escaped(module) + "}:" + id;
    }

    /** Every instance that announced itself, scored by its last heartbeat (epoch ms). */
    public String instances() {
        return prefix + ":instances";
    }

    /** A console login ended before its time, kept until it would have expired. */
    public String revokedConsoleSession(String session) {
        return prefix + ":console:revoked:" + session;
    }

    public String configChangedChannel() {
        return prefix + ":config-changed";
    }
}
