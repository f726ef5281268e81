package dev.ratelimit.interceptor.rule;

import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiPredicate;
import java.util.function.Function;

/**
 * What the request path makes from a limit (a header's text, a counter key's start), made once per rule and
 * made again when the limit in force no longer fits it (an operator changed its count, or a dynamic rule its
 * algorithm). Rules are few, but a config of thousands of {@code dynuri} patterns is bounded: past
 * {@value #MOST_RULES_KEPT} rules, a value is made each time and not kept.
 *
 * @param <V> an immutable value
 */
public final class PerRuleCache<V> {

    private static final int MOST_RULES_KEPT = 4096;

    private final ConcurrentHashMap<RuleId, V> kept = new ConcurrentHashMap<>();
    private final BiPredicate<V, LimitDefinition> fits;
    private final Function<LimitDefinition, V> make;

    /**
     * @param fits whether a value made for a limit of the rule still serves this limit of it
     * @param make the value for a limit
     */
    public PerRuleCache(BiPredicate<V, LimitDefinition> fits, Function<LimitDefinition, V> make) {
        this.fits = fits;
        this.make = make;
    }

    public V get(LimitDefinition limit) {
        V value = kept.get(limit.id());
        if (value == null || !fits.test(value, limit)) {
            value = make.apply(limit);
            if (kept.size() < MOST_RULES_KEPT) {
                kept.put(limit.id(), value);
            }
        }
        return value;
    }
}
