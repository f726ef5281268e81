package dev.ratelimit.interceptor.metrics;

import dev.ratelimit.interceptor.rule.RuleId;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.BiFunction;

/**
 * One value per rule and outcome (a counter, a meter), made on first use. Every limited request counts
 * an outcome, so a lookup is one hash lookup by the rule (whose hash is kept) and an array index by the
 * outcome: no key object per request.
 *
 * @param <T> what is kept for each rule and outcome; must be safe to make twice (only one is kept)
 */
public final class OutcomeTable<T> {

    private static final Outcome[] OUTCOMES = Outcome.values();

    private final ConcurrentHashMap<RuleId, AtomicReferenceArray<T>> rows = new ConcurrentHashMap<>();
    private final BiFunction<RuleId, Outcome, T> make;

    public OutcomeTable(BiFunction<RuleId, Outcome, T> make) {
        this.make = make;
    }

    public T get(RuleId rule, Outcome outcome) {
        AtomicReferenceArray<T> row = rows.get(rule);
        if (row == null) {
            row = rows.computeIfAbsent(rule, absent -> new AtomicReferenceArray<>(OUTCOMES.length));
        }
        T value = row.get(outcome.ordinal());
        if (value == null) {
            T made = make.apply(rule, outcome);
            value = row.compareAndExchange(outcome.ordinal(), null, made);
            if (value == null) {
                value = made;
            }
        }
        return value;
    }

    /** Each value made so far, with its rule and outcome. */
    public void forEach(Entry<? super T> each) {
        rows.forEach((rule, row) -> {
            for (Outcome outcome : OUTCOMES) {
                T value = row.get(outcome.ordinal());
                if (value != null) {
                    each.accept(rule, outcome, value);
                }
            }
        });
    }

    @FunctionalInterface
    public interface Entry<T> {
        void accept(RuleId rule, Outcome outcome, T value);
    }
}
