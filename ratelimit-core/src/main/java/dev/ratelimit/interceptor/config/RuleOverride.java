package dev.ratelimit.interceptor.config;

import dev.ratelimit.interceptor.rule.LimitDefinition;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** What the config hash says about one rule's knobs: each canonical value an operator set; absent: as declared. */
record RuleOverride(Map<Knob, String> values) {

    static final RuleOverride NONE = new RuleOverride(Map.of());

    RuleOverride {
        values = values.isEmpty() ? Map.of() : new EnumMap<>(values);
    }

    boolean enabled() {
        return !"0".equals(values.get(Knob.CHECK));
    }

    /** Whether an operator switched the batching of the rule's hot counters off. */
    boolean unbatched() {
        return "0".equals(values.get(Knob.BATCH));
    }

    boolean shadow() {
        return RuleMode.SHADOW.value().equals(values.get(Knob.MODE));
    }

    /** The operator's canonical value of a knob, or {@code null}. */
    @Nullable String value(Knob knob) {
        return values.get(knob);
    }

    RuleOverride with(Knob knob, String canonical) {
        Map<Knob, String> more = new EnumMap<>(Knob.class);
        more.putAll(values);
        more.put(knob, canonical);
        return new RuleOverride(more);
    }

    RuleOverride without(Knob knob) {
        Map<Knob, String> fewer = new EnumMap<>(Knob.class);
        fewer.putAll(values);
        fewer.remove(knob);
        return new RuleOverride(fewer);
    }

    /**
     * The limit with the operator's values applied. The parser checked them against the declaration it
     * knew ({@code declared.*}); a value that still does not fit the annotation in force (an algorithm its cost
     * or quota does not allow, a hand-edited hash without declarations) leaves its knob as declared rather than
     * failing requests. A value that only fits with another (a count with its window) is tried again once the
     * others are applied.
     */
    LimitDefinition applyTo(LimitDefinition limit) {
        return applied(limit).limit();
    }

    /** {@link #applyTo}, with why each value left as declared does not fit. */
    Applied applied(LimitDefinition limit) {
        LimitDefinition applied = limit;
        List<Map.Entry<Knob, String>> deferred = new ArrayList<>();
        for (Map.Entry<Knob, String> value : values.entrySet()) {
            try {
                applied = value.getKey().apply(applied, value.getValue());
            } catch (IllegalArgumentException e) {
                deferred.add(value);
            }
        }
        Map<Knob, String> notApplied = new EnumMap<>(Knob.class);
        for (Map.Entry<Knob, String> value : deferred) {
            try {
                applied = value.getKey().apply(applied, value.getValue());
            } catch (IllegalArgumentException e) {
                notApplied.put(value.getKey(), String.valueOf(e.getMessage()));
            }
        }
        return new Applied(applied, notApplied);
    }

    /** A limit with the operator's values, and those that do not fit it with the reason. */
    record Applied(LimitDefinition limit, Map<Knob, String> notApplied) {
    }
}
