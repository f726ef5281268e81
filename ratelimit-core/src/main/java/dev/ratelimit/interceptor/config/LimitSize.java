package dev.ratelimit.interceptor.config;

import dev.ratelimit.interceptor.rule.LimitDefinition;
import java.util.Map;
import java.util.function.Function;

/**
 * A limit's size, its count per window, as the knobs that set it ({@link Knob#resizes()}) make it: checked
 * whole, as the annotation's are, since a count that fits one window may not fit another.
 */
record LimitSize(long count, long windowSeconds) {

    /** What a rule's size is taken to be where nothing says it: the smallest there is. */
    static final LimitSize ONE = new LimitSize(1, 1);

    /**
     * The size that the knobs' canonical values make of {@link #ONE}, each value from {@code values}, a knob
     * without one left out.
     */
    static LimitSize of(Function<Knob, String> values) {
        LimitSize size = ONE;
        for (Knob knob : Knob.values()) {
            String value = knob.resizes() ? values.apply(knob) : null;
            if (value != null) {
                size = knob.resize(size, value);
            }
        }
        return size;
    }

    /** Whether any of the knobs holds a part of a size. */
    static boolean anyIn(Map<Knob, ?> knobs) {
        return knobs.keySet().stream().anyMatch(Knob::resizes);
    }

    /** @throws IllegalArgumentException with a message fit to show an operator, when the limiter could not apply it */
    void check() {
        LimitDefinition.check(count, windowSeconds);
    }
}
