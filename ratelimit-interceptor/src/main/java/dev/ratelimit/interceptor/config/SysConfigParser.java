package dev.ratelimit.interceptor.config;

import static dev.ratelimit.interceptor.config.SysConfigFields.CHECK_SUFFIX;
import static dev.ratelimit.interceptor.config.SysConfigFields.COUNT_SUFFIX;
import static dev.ratelimit.interceptor.config.SysConfigFields.DYNURI_PREFIX;
import static dev.ratelimit.interceptor.config.SysConfigFields.DYN_PREFIX;
import static dev.ratelimit.interceptor.config.SysConfigFields.GLOBAL_CHECK;
import static dev.ratelimit.interceptor.config.SysConfigFields.GLOBAL_MODE;
import static dev.ratelimit.interceptor.config.SysConfigFields.INTERVAL_SUFFIX;
import static dev.ratelimit.interceptor.config.SysConfigFields.LOG_CHECK;
import static dev.ratelimit.interceptor.config.SysConfigFields.MODE_SUFFIX;
import static dev.ratelimit.interceptor.config.SysConfigFields.WHITELIST_IPS;
import static dev.ratelimit.interceptor.config.SysConfigFields.WHITELIST_USERS;

import dev.ratelimit.interceptor.identity.Whitelist;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Turns the raw config hash into a {@link RuleSnapshot}. A value that does not parse is reported to
 * {@code warnings} and ignored (the declared default applies): one bad field never disables the rest.
 * Fields it does not know are left alone, for newer versions that share the hash.
 */
public final class SysConfigParser {

    static final int MAX_PATTERN_LENGTH = 512;

    private SysConfigParser() {
    }

    public static RuleSnapshot parse(Map<String, String> hash, long version, Instant loadedAt,
                                     Consumer<String> warnings) {
        boolean globalCheck = true;
        RuleMode globalMode = RuleMode.ENFORCE;
        boolean logCheck = true;
        Map<String, RuleOverride> overrides = new HashMap<>();
        Set<String> shadowRules = new HashSet<>();
        Map<String, LimitSpec> dynamicRules = new HashMap<>();
        List<UriRule> uriRules = new ArrayList<>();
        for (Map.Entry<String, String> entry : hash.entrySet()) {
            String field = entry.getKey();
            String value = entry.getValue();
            try {
                if (field.equals(GLOBAL_CHECK)) {
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
                } else if (field.endsWith(CHECK_SUFFIX)) {
                    boolean enabled = parseSwitch(value);
                    overrides.compute(ruleId(field, CHECK_SUFFIX), (id, o) -> orNone(o).withEnabled(enabled));
                } else if (field.endsWith(COUNT_SUFFIX)) {
                    long count = parsePositive(value);
                    overrides.compute(ruleId(field, COUNT_SUFFIX), (id, o) -> orNone(o).withCount(count));
                } else if (field.endsWith(INTERVAL_SUFFIX)) {
                    long interval = parsePositive(value);
                    overrides.compute(ruleId(field, INTERVAL_SUFFIX), (id, o) -> orNone(o).withInterval(interval));
                } else if (field.endsWith(MODE_SUFFIX)) {
                    String ruleId = ruleId(field, MODE_SUFFIX);
                    if (RuleMode.parse(value) == RuleMode.SHADOW) {
                        shadowRules.add(ruleId);
                    }
                }
            } catch (IllegalArgumentException e) {
                warnings.accept("ignoring config field '" + LimitSpec.abbreviate(field) + "' = '"
                        + LimitSpec.abbreviate(String.valueOf(value)) + "': " + e.getMessage());
            }
        }
        Whitelist whitelist = Whitelist.parse(Whitelist.split(hash.get(WHITELIST_IPS)),
                Whitelist.split(hash.get(WHITELIST_USERS)),
                bad -> warnings.accept("ignoring '" + LimitSpec.abbreviate(bad) + "' in config field '" + WHITELIST_IPS
                        + "': not an IP address or CIDR block"));
        return new RuleSnapshot(version, loadedAt, globalCheck, globalMode, logCheck, overrides, shadowRules,
                dynamicRules, uriRules, whitelist);
    }

    /**
     * {@code 1}/{@code 0} as the design writes them; {@code true}/{@code false} and {@code on}/{@code off}
     * are taken too, since operators type them.
     */
    public static boolean parseSwitch(String value) {
        String text = value == null ? "" : value.strip().toLowerCase(java.util.Locale.ROOT);
        return switch (text) {
            case "1", "true", "on" -> true;
            case "0", "false", "off" -> false;
            default -> throw new IllegalArgumentException("a switch is 1 (on) or 0 (off)");
        };
    }

    /** A whole number of at least 1. */
    public static long parsePositive(String value) {
        try {
            long number = Long.parseLong(value == null ? "" : value.strip());
            if (number >= 1) {
                return number;
            }
        } catch (NumberFormatException e) {
            // reported below with the field's name
        }
        throw new IllegalArgumentException("expected a whole number of at least 1");
    }

    /** A {@code dynuri.*} pattern must be an absolute Ant path of sane length. */
    public static void validatePattern(String pattern) {
        if (pattern.isEmpty() || pattern.charAt(0) != '/' || pattern.length() > MAX_PATTERN_LENGTH
                || pattern.chars().anyMatch(c -> c <= ' ' || c == 0x7f)) {
            throw new IllegalArgumentException("a URL pattern starts with '/', has no spaces or control characters "
                    + "and is at most " + MAX_PATTERN_LENGTH + " characters");
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
            throw new IllegalArgumentException("unbalanced '{' '}' in URL pattern");
        }
        try {
            RuleSnapshot.PATH_MATCHER.match(pattern, pattern);
        } catch (IllegalArgumentException e) {
            // AntPathMatcher compiles a pattern's {name:regex} parts only when matching: on a request thread
            throw new IllegalArgumentException("URL pattern does not compile: " + e.getMessage().lines().findFirst()
                    .orElse(""));
        }
    }

    private static String ruleId(String field, String suffix) {
        String id = field.substring(0, field.length() - suffix.length());
        if (id.indexOf('.') <= 0) {
            throw new IllegalArgumentException("expected <module>.<rule>" + suffix);
        }
        return id;
    }

    private static RuleOverride orNone(RuleOverride override) {
        return override == null ? RuleOverride.NONE : override;
    }
}
