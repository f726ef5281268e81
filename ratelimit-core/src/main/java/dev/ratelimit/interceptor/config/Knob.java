package dev.ratelimit.interceptor.config;

import com.fasterxml.jackson.annotation.JsonValue;
import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.Dimension;
import dev.ratelimit.interceptor.rule.LimitDefinition;
import dev.ratelimit.interceptor.rule.RuleId;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * What an operator can set of a rule in the config hash, each in the field {@code <rule>.<suffix>}, and
 * everything about it in one place: how a value is checked and written (its canonical form, the one the
 * parser reads and the editor writes), how documents and views show it, what it is as declared, and
 * what it does to a limit. The parser, the editor, the start-up merge, the rules in force, the console
 * and the rules document all go through these, so a new knob is a constant here (and the part of the
 * limit it sets). Knobs that set the limit's size (its count per window) are checked together, by
 * {@link LimitSize}, wherever they are written or read. A rule's plans and client exceptions are keyed fields of their own
 * ({@link SysConfigFields#plan}, {@link SysConfigFields#exception}).
 */
public enum Knob {

    /** {@code 1}/{@code 0}: whether the rule limits at all; documents write {@code on}/{@code off}. */
    CHECK("check", true, false, true),

    /** Requests admitted per window. */
    COUNT("count", true, true, false) {
        @Override
        String canonical(String text) {
            return Long.toString(SysConfigParser.parsePositive(text));
        }

        @Override
        String of(LimitDefinition limit) {
            return Long.toString(limit.count());
        }

        @Override
        LimitDefinition apply(LimitDefinition limit, String canonical) {
            return limit.withLimit(Long.parseLong(canonical), limit.windowSeconds());
        }

        @Override
        LimitSize resize(LimitSize size, String canonical) {
            return new LimitSize(Long.parseLong(canonical), size.windowSeconds());
        }

        @Override
        boolean resizes() {
            return true;
        }
    },

    /** The window in seconds: the field is {@code <rule>.interval}, as the annotation's attribute. */
    WINDOW("interval", true, true, false) {
        @Override
        String canonical(String text) {
            return Long.toString(SysConfigParser.parsePositive(text));
        }

        @Override
        String of(LimitDefinition limit) {
            return Long.toString(limit.windowSeconds());
        }

        @Override
        LimitDefinition apply(LimitDefinition limit, String canonical) {
            // a calendar quota's window is its period, which no count of seconds replaces
            return limit.quota().isCalendar() ? limit : limit.withLimit(limit.count(), Long.parseLong(canonical));
        }

        @Override
        LimitSize resize(LimitSize size, String canonical) {
            return new LimitSize(size.count(), Long.parseLong(canonical));
        }

        @Override
        boolean resizes() {
            return true;
        }
    },

    /** {@code enforce}, or {@code shadow}: denials are only logged and metered. */
    MODE("mode", true, false, false) {
        @Override
        String canonical(String text) {
            return RuleMode.parse(text).value();
        }

        @Override
        String of(LimitDefinition declared) {
            return RuleMode.ENFORCE.value();
        }
    },

    /**
     * How long a denied client stays denied: {@code <seconds>}, {@code <first>..<longest>}, or {@code 0}
     * for none. Not written at start-up: absent, the annotation's applies.
     */
    PENALTY("penalty", false, true, false) {
        @Override
        String canonical(String text) {
            return LimitSpec.formatPenalty(LimitSpec.parsePenalty(text));
        }

        @Override
        String of(LimitDefinition limit) {
            return LimitSpec.formatPenalty(limit.penalty());
        }

        @Override
        LimitDefinition apply(LimitDefinition limit, String canonical) {
            return limit.withPenalty(LimitSpec.parsePenalty(canonical));
        }
    },

    /**
     * Who is counted together, in place of the annotation's: {@code user}, {@code ip} or {@code method} (the
     * endpoint as a whole), as a dynamic rule names them. The counters' keys carry the dimension, so a change
     * starts the rule's clients afresh. A limit declared per key ({@code CUSTOM}) or sharing its module's counter
     * ({@code GLOBAL}) keeps its dimension. Not written at start-up.
     */
    DIMENSION("dimension", false, true, false) {
        @Override
        String canonical(String text) {
            return lower(LimitSpec.dimension(text.strip()));
        }

        @Override
        String of(LimitDefinition limit) {
            return lower(limit.dimension());
        }

        @Override
        LimitDefinition apply(LimitDefinition limit, String canonical) {
            Dimension dimension = Dimension.valueOf(canonical.toUpperCase(Locale.ROOT));
            if (dimension != limit.dimension() && !LimitSpec.DIMENSIONS.contains(limit.dimension())) {
                throw new IllegalArgumentException("a " + limit.dimension() + " limit keeps its dimension: "
                        + (limit.dimension() == Dimension.CUSTOM ? "it counts by its key"
                        : "its module's endpoints share its counter"));
            }
            return limit.withDimension(dimension);
        }
    },

    /**
     * The algorithm that counts the rule's requests, in place of the annotation's: {@code fixed_window},
     * {@code sliding_window}, {@code sliding_log} or {@code token_bucket}. Each algorithm has counters of its own,
     * so a change starts the rule's clients afresh. Where the rule cannot be counted so (a concurrency limit, a
     * calendar quota, a cost settled after the response), the annotation's applies. Not written at start-up.
     */
    ALGORITHM("algorithm", false, true, false) {
        @Override
        String canonical(String text) {
            return lower(LimitSpec.rateAlgorithm(text));
        }

        @Override
        String of(LimitDefinition limit) {
            return lower(limit.algorithm());
        }

        @Override
        LimitDefinition apply(LimitDefinition limit, String canonical) {
            return limit.withAlgorithm(Algorithm.valueOf(canonical.toUpperCase(Locale.ROOT)));
        }
    },

    /**
     * {@code 1}/{@code 0}: whether a counter of the rule that is hot on an instance may be counted in batches
     * of permits ({@code ratelimit.hot-keys.*}); off, every request asks Redis. Documents write
     * {@code on}/{@code off}. Not written at start-up: absent, it is on, unless the rule is in
     * {@code ratelimit.hot-keys.excluded-rules}, which no operator's value overrides.
     */
    BATCH("batch", false, false, true);

    private static final String ON = "1";
    private static final String OFF = "0";

    private final String suffix;
    private final boolean merged;
    private final boolean setsLimit;
    private final boolean onOff;

    /** @param onOff whether the knob is an on/off switch, on unless set ({@code 1}/{@code 0}, written {@code on}/{@code off}) */
    Knob(String suffix, boolean merged, boolean setsLimit, boolean onOff) {
        this.suffix = "." + suffix;
        this.merged = merged;
        this.setsLimit = setsLimit;
        this.onOff = onOff;
    }

    /** The knob's config field of a rule. */
    public String field(RuleId rule) {
        return rule + suffix;
    }

    /** The knob's name in documents and views: {@code check}, {@code count}, {@code window}, ... */
    @JsonValue
    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The value as the hash holds it: {@code on} becomes {@code 1}, {@code " 030 "} {@code 30}. Every knob
     * that is not an on/off switch says how.
     *
     * @throws IllegalArgumentException with a message fit to show an operator
     */
    String canonical(String text) {
        return SysConfigParser.parseSwitch(text) ? ON : OFF;
    }

    /** A canonical value as documents and views write it. */
    public String text(String canonical) {
        return onOff ? (OFF.equals(canonical) ? "off" : "on") : canonical;
    }

    /**
     * The knob's canonical value in a limit: what an annotation declares, or what is in force. A switch
     * or a mode, which no limit carries, gives its default: an on/off switch is on.
     */
    String of(LimitDefinition limit) {
        return ON;
    }

    /**
     * The value in force of a rule whose limit in force is {@code inForce}: a part of the limit as the
     * limit has it (the operator's value applied, where it fits the annotation), a switch or a mode as the
     * operator set it, else its default.
     *
     * @param operators the operator's canonical value, or {@code null}
     */
    String inForce(LimitDefinition inForce, @Nullable String operators) {
        return setsLimit || operators == null ? of(inForce) : operators;
    }

    /** Whether the knob sets a part of the limit; otherwise it is the rule's switch or mode. */
    public boolean setsLimit() {
        return setsLimit;
    }

    /** A limit with this knob's value; switches and modes leave it as it is. */
    LimitDefinition apply(LimitDefinition limit, String canonical) {
        return limit;
    }

    /** A limit's size with this knob's value, for the check of count and window together; others leave it. */
    LimitSize resize(LimitSize size, String canonical) {
        return size;
    }

    /** Whether the knob sets a part of the limit's size, which is valid only with the other parts. */
    boolean resizes() {
        return false;
    }

    /**
     * Whether the start-up merge writes the declared value (so that {@code HGETALL} shows it); a knob that is not
     * goes back to its declaration by being removed.
     */
    public boolean merged() {
        return merged;
    }

    /** {@code .check}, {@code .interval}, ...: what a field of this knob ends with. */
    String suffix() {
        return suffix;
    }

    /** An enum constant as the hash writes it: {@code token_bucket}, {@code ip}. */
    private static String lower(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT);
    }

    /** The knob of a field, or {@code null} when the field is no rule's knob. */
    static @Nullable Knob ofField(String field) {
        for (Knob knob : values()) {
            if (field.endsWith(knob.suffix)) {
                return knob;
            }
        }
        return null;
    }

    /** The knob a document calls {@code key}, or {@code null}. */
    public static @Nullable Knob ofKey(String key) {
        for (Knob knob : values()) {
            if (knob.key().equals(key)) {
                return knob;
            }
        }
        return null;
    }
}
