package dev.ratelimit.interceptor.config;

import static dev.ratelimit.interceptor.config.SysConfigFields.DECLARED_PREFIX;
import static dev.ratelimit.interceptor.config.SysConfigFields.DYNURI_PREFIX;
import static dev.ratelimit.interceptor.config.SysConfigFields.DYN_PREFIX;
import static dev.ratelimit.interceptor.config.SysConfigFields.EXCEPTION_INFIX;
import static dev.ratelimit.interceptor.config.SysConfigFields.GLOBAL_CHECK;
import static dev.ratelimit.interceptor.config.SysConfigFields.GLOBAL_MODE;
import static dev.ratelimit.interceptor.config.SysConfigFields.LOG_CHECK;
import static dev.ratelimit.interceptor.config.SysConfigFields.PLAN_INFIX;
import static dev.ratelimit.interceptor.config.SysConfigFields.VERSION;
import static dev.ratelimit.interceptor.config.SysConfigFields.WHITELIST_IPS;
import static dev.ratelimit.interceptor.config.SysConfigFields.WHITELIST_USERS;

import dev.ratelimit.interceptor.InvalidValueException;
import dev.ratelimit.interceptor.identity.CidrBlock;
import dev.ratelimit.interceptor.identity.CounterIdentity;
import dev.ratelimit.interceptor.identity.DenyList;
import dev.ratelimit.interceptor.identity.Whitelist;
import dev.ratelimit.interceptor.rule.LimitDefinition;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * Turns the raw config hash into a {@link RuleSnapshot}. A value that does not parse is reported to
 * {@code warnings} and ignored (the declared default applies): one bad field never disables the rest.
 * Fields it does not know are left alone, for newer versions that share the hash.
 */
public final class SysConfigParser {

    static final int MAX_PATTERN_LENGTH = 512;
    /**
     * The most client exceptions a hash holds, over all rules: each one is a map entry on every instance
     * (about 200 bytes with its identity), so 10,000 cost about 2 MB per instance. Beyond it the rest are
     * ignored, with the reason; the editor refuses to add more.
     */
    public static final int MAX_EXCEPTIONS = 10_000;

    private SysConfigParser() {
    }

    /** The hash as the limiter applies it, read at {@code loadedAt}. */
    public static RuleSnapshot parse(Map<String, String> hash, Instant loadedAt, Consumer<String> warnings) {
        boolean globalCheck = true;
        RuleMode globalMode = RuleMode.ENFORCE;
        boolean logCheck = true;
        Map<String, RuleOverride> overrides = new HashMap<>();
        Map<String, String> ignored = new TreeMap<>();
        Set<String> shadowRules = new HashSet<>();
        Map<String, LimitSpec> dynamicRules = new HashMap<>();
        List<UriRule> uriRules = new ArrayList<>();
        Map<String, Map<String, LimitSpec>> plans = new HashMap<>();
        Map<String, Map<String, IdentityException>> exceptions = new HashMap<>();
        Map<String, Map<String, IdentityException>> hashedExceptions = new HashMap<>();
        int exceptionCount = 0;
        SortedMap<String, DenyList.Entry> denied = new TreeMap<>();
        for (Map.Entry<String, String> entry : hash.entrySet()) {
            String field = entry.getKey();
            String value = entry.getValue();
            try {
                DenyList.Kind denyKind = SysConfigFields.denyKind(field);
                if (field.startsWith(DECLARED_PREFIX) || field.equals(VERSION)) {
                    continue;
                } else if (denyKind != null) {
                    DenyList.Entry deny = denyEntry(denyKind, SysConfigFields.denyTarget(denyKind, field), value);
                    if (deny.inForceAt(loadedAt)) {
                        denied.put(field, deny);
                    }
                } else if (field.equals(GLOBAL_CHECK)) {
                    globalCheck = parseSwitch(value);
                } else if (field.equals(GLOBAL_MODE)) {
                    globalMode = RuleMode.parse(value);
                } else if (field.equals(LOG_CHECK)) {
                    logCheck = parseSwitch(value);
                } else if (field.startsWith(DYNURI_PREFIX)) {
                    String pattern = field.substring(DYNURI_PREFIX.length());
                    validatePattern(pattern);
                    uriRules.add(new UriRule(pattern, LimitSpec.parse(value)));
                } else if (field.startsWith(DYN_PREFIX)) {
                    dynamicRules.put(field.substring(DYN_PREFIX.length()), LimitSpec.parse(value));
                } else if (field.contains(EXCEPTION_INFIX)) {
                    int infix = field.indexOf(EXCEPTION_INFIX);
                    IdentityException exception = IdentityException.parse(value);
                    if (!exception.inForceAt(loadedAt)) {
                        throw new InvalidValueException("ratelimit.config.exception.ended", exception.until());
                    }
                    if (++exceptionCount > MAX_EXCEPTIONS) {
                        throw new InvalidValueException("ratelimit.config.exception.tooMany", MAX_EXCEPTIONS);
                    }
                    String identity = field.substring(infix + EXCEPTION_INFIX.length());
                    exceptions.computeIfAbsent(field.substring(0, infix), rule -> new HashMap<>()).put(identity, exception);
                    String counted = CounterIdentity.keyPart(identity);
                    if (counted != null && !counted.equals(identity)) {
                        hashedExceptions.computeIfAbsent(field.substring(0, infix), rule -> new HashMap<>())
                                .put(counted, exception);
                    }
                } else if (field.contains(PLAN_INFIX)) {
                    int infix = field.indexOf(PLAN_INFIX);
                    plans.computeIfAbsent(field.substring(0, infix), rule -> new HashMap<>())
                            .put(field.substring(infix + PLAN_INFIX.length()), LimitSpec.parse(value));
                } else {
                    Knob knob = Knob.ofField(field);
                    if (knob != null) {
                        knob(knob, ruleId(field, knob), value, overrides, shadowRules);
                    }
                }
            } catch (IllegalArgumentException e) {
                ignore(field, value, e.getMessage(), ignored, warnings);
            }
        }
        sizes(hash, overrides, ignored, warnings);
        Whitelist whitelist = Whitelist.parse(Whitelist.split(hash.get(WHITELIST_IPS)),
                Whitelist.split(hash.get(WHITELIST_USERS)),
                bad -> {
                    String reason = "'" + LimitSpec.abbreviate(bad) + "' is not an IP address or CIDR block";
                    ignored.merge(WHITELIST_IPS, reason, (first, next) -> first + "; " + next);
                    warnings.accept("ignoring '" + LimitSpec.abbreviate(bad) + "' in config field '" + WHITELIST_IPS
                            + "': not an IP address or CIDR block");
                });
        DenyList denyList = denyList(denied, ignored, warnings);
        return new RuleSnapshot(version(hash), loadedAt, hash, globalCheck, globalMode, logCheck, overrides,
                shadowRules, dynamicRules, uriRules, whitelist, ignored, immutable(plans), immutable(exceptions),
                immutable(hashedExceptions), denyList);
    }

    /** A deny-list field's entry; an entry that has ended is not an error, it just no longer applies. */
    private static DenyList.Entry denyEntry(DenyList.Kind kind, String target, String value) {
        if (kind == DenyList.Kind.IP) {
            CidrBlock.parse(target);
        } else if (target.isBlank()) {
            throw new InvalidValueException("ratelimit.config.identity", target);
        }
        return DenyList.Entry.parse(kind, target, value);
    }

    /**
     * The entries in force, at most {@link DenyList#MAX_ENTRIES}: beyond it the rest by field name (so every
     * instance keeps the same ones) are ignored, with the reason and one warning for them all.
     */
    private static DenyList denyList(SortedMap<String, DenyList.Entry> inForce, Map<String, String> ignored,
                                     Consumer<String> warnings) {
        if (inForce.size() <= DenyList.MAX_ENTRIES) {
            return DenyList.of(inForce.values());
        }
        String reason = new InvalidValueException("ratelimit.config.deny.tooMany", DenyList.MAX_ENTRIES).getMessage();
        List<DenyList.Entry> kept = new ArrayList<>(DenyList.MAX_ENTRIES);
        inForce.forEach((field, entry) -> {
            if (kept.size() < DenyList.MAX_ENTRIES) {
                kept.add(entry);
            } else {
                ignored.put(field, reason);
            }
        });
        warnings.accept("ignoring " + (inForce.size() - DenyList.MAX_ENTRIES) + " deny-list fields after '"
                + LimitSpec.abbreviate(inForce.keySet().stream().skip(DenyList.MAX_ENTRIES - 1).findFirst().orElseThrow())
                + "' (by name): " + reason);
        return DenyList.of(kept);
    }

    /** The hash's {@code config.version}; 0 when it has none that reads as one (a hash from before versions). */
    public static long version(Map<String, String> hash) {
        try {
            String value = hash.get(VERSION);
            return value == null ? 0 : Long.parseLong(value.strip());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** A knob's canonical value into its rule's override. */
    private static void knob(Knob knob, String rule, String value, Map<String, RuleOverride> overrides,
                             Set<String> shadowRules) {
        String canonical = knob.canonical(value);
        overrides.compute(rule, (id, o) -> orNone(o).with(knob, canonical));
        if (knob == Knob.MODE && canonical.equals(RuleMode.SHADOW.value())) {
            shadowRules.add(rule);
        }
    }

    /**
     * The size of each rule an operator resized, checked whole as the annotation's is: the knobs that set it
     * as the hash holds them, the others from their {@code declared.*} fields. Values the limiter could not
     * apply together are ignored together, with the reason.
     */
    private static void sizes(Map<String, String> hash, Map<String, RuleOverride> overrides,
                              Map<String, String> ignored, Consumer<String> warnings) {
        Iterator<Map.Entry<String, RuleOverride>> entries = overrides.entrySet().iterator();
        while (entries.hasNext()) {
            Map.Entry<String, RuleOverride> entry = entries.next();
            String rule = entry.getKey();
            RuleOverride override = entry.getValue();
            if (!LimitSize.anyIn(override.values())) {
                continue;
            }
            try {
                LimitSize.of(knob -> override.value(knob) != null ? override.value(knob) : declared(hash, rule, knob))
                        .check();
            } catch (IllegalArgumentException e) {
                RuleOverride kept = override;
                for (Knob knob : override.values().keySet()) {
                    if (knob.resizes()) {
                        String field = rule + knob.suffix();
                        ignore(field, hash.get(field), e.getMessage(), ignored, warnings);
                        kept = kept.without(knob);
                    }
                }
                if (kept.values().isEmpty()) {
                    entries.remove();
                } else {
                    entry.setValue(kept);
                }
            }
        }
    }

    private static <V> Map<String, Map<String, V>> immutable(Map<String, Map<String, V>> byRule) {
        Map<String, Map<String, V>> copy = new HashMap<>();
        byRule.forEach((rule, values) -> copy.put(rule, Map.copyOf(values)));
        return copy;
    }

    /** A knob's canonical value as the rule declares it ({@code declared.*}), or {@code null}. */
    private static @Nullable String declared(Map<String, String> hash, String rule, Knob knob) {
        try {
            String value = hash.get(SysConfigFields.declared(rule + knob.suffix()));
            return value == null ? null : knob.canonical(value);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static void ignore(String field, @Nullable String value, @Nullable String reason,
                               Map<String, String> ignored, Consumer<String> warnings) {
        ignored.put(field, reason);
        warnings.accept("ignoring config field '" + LimitSpec.abbreviate(field) + "' = '"
                + LimitSpec.abbreviate(String.valueOf(value)) + "': " + reason);
    }

    /**
     * {@code 1}/{@code 0} as the design writes them; {@code true}/{@code false} and {@code on}/{@code off}
     * are taken too, since operators type them.
     */
    public static boolean parseSwitch(@Nullable String value) {
        String text = value == null ? "" : value.strip().toLowerCase(java.util.Locale.ROOT);
        return switch (text) {
            case "1", "true", "on" -> true;
            case "0", "false", "off" -> false;
            default -> throw new InvalidValueException("ratelimit.config.switch");
        };
    }

    /** A whole number of at least 1. */
    public static long parsePositive(@Nullable String value) {
        try {
            long number = Long.parseLong(value == null ? "" : value.strip());
            if (number >= 1) {
                return number;
            }
        } catch (NumberFormatException e) {
            // reported below with the field's name
        }
        throw new InvalidValueException("ratelimit.config.positive", LimitSpec.abbreviate(String.valueOf(value)));
    }

    /** A {@code dynuri.*} pattern must be an absolute Ant path of sane length. */
    public static void validatePattern(String pattern) {
        if (pattern.isEmpty() || pattern.charAt(0) != '/' || pattern.length() > MAX_PATTERN_LENGTH
                || pattern.chars().anyMatch(c -> c <= ' ' || c == 0x7f)) {
            throw new InvalidValueException("ratelimit.config.pattern", MAX_PATTERN_LENGTH);
        }
        int open = 0;
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (c == '{') {
                open++;
            } else if (c == '}' && --open < 0) {
                break;
            }
        }
        if (open != 0) {
            throw new InvalidValueException("ratelimit.config.pattern.braces");
        }
        try {
            RuleSnapshot.PATH_MATCHER.match(pattern, pattern);
        } catch (IllegalArgumentException e) {
            // AntPathMatcher compiles a pattern's {name:regex} parts only when matching: on a request thread
            throw new InvalidValueException("ratelimit.config.pattern.regex",
                    Objects.requireNonNull(e.getMessage(), "AntPathMatcher says what is wrong").lines().findFirst()
                            .orElse(""));
        }
    }

    private static String ruleId(String field, Knob knob) {
        String id = field.substring(0, field.length() - knob.suffix().length());
        if (id.indexOf('.') <= 0) {
            throw new IllegalArgumentException("expected <module>.<rule>" + knob.suffix());
        }
        return id;
    }

    private static RuleOverride orNone(RuleOverride override) {
        return override == null ? RuleOverride.NONE : override;
    }
}
