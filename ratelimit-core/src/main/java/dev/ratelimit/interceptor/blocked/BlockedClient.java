package dev.ratelimit.interceptor.blocked;

import dev.ratelimit.interceptor.Dimension;
import dev.ratelimit.interceptor.store.RedisKeys;
import dev.ratelimit.interceptor.identity.DenyList;
import dev.ratelimit.interceptor.rule.RuleId;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * A client refused by a rule now, as the instances saw it.
 *
 * @param member    names the client within the module: {@code <rule>:<dimension>:<identity>}; what
 *                  {@link BlockedClients#unblock} takes
 * @param rule      the rule's name within the module (its id is {@code <module>.<rule>}); {@code _global}
 *                  for the counter every GLOBAL limit of a module shares
 * @param dimension who is counted, e.g. {@code USER}, with the algorithm when not a fixed window ({@code IP@TOKEN_BUCKET})
 * @param identity  the user code, client address, or {@code all}; user codes with braces appear hashed
 * @param until     when the block ends, unless more requests extend it
 */
public record BlockedClient(String module, String member, String rule, String dimension, String identity,
                            Instant until) {

    public RuleId ruleId() {
        return RuleId.of(module, rule);
    }

    /**
     * The kind of deny-list entry that names this client ({@code ip}, {@code user}, {@code key}), or {@code null}
     * for a client that is not one (METHOD and GLOBAL count everyone under {@code all}).
     */
    public DenyList.@Nullable Kind denyKind() {
        int algorithm = dimension.indexOf('@');
        try {
            return DenyList.Kind.of(Dimension.valueOf(algorithm < 0 ? dimension : dimension.substring(0, algorithm)));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** @return {@code null} for a member that is not one of a counter key */
    static @Nullable BlockedClient of(String module, String member, Instant until) {
        int rule = member.indexOf(':');
        int dimension = rule < 0 ? -1 : member.indexOf(':', rule + 1);
        if (dimension < 0) {
            return null;
        }
        return new BlockedClient(module, member, RedisKeys.unescaped(member.substring(0, rule)),
                member.substring(rule + 1, dimension), member.substring(dimension + 1), until);
    }
}
