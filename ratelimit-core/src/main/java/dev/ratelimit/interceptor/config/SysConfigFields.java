package dev.ratelimit.interceptor.config;

import dev.ratelimit.interceptor.identity.DenyList;
import dev.ratelimit.interceptor.rule.RuleId;
import org.jspecify.annotations.Nullable;

/**
 * Names of the fields of the {@code {p}:sysconfig} hash, the only place they are spelt; a rule's own
 * knobs are {@link Knob}s.
 */
public final class SysConfigFields {

    public static final String GLOBAL_CHECK = "global.check";
    public static final String GLOBAL_MODE = "global.mode";
    public static final String LOG_CHECK = "log.check";
    public static final String WHITELIST_IPS = "whitelist.ips";
    public static final String WHITELIST_USERS = "whitelist.users";
    /**
     * {@code config.version}: advanced by every write through the limiter, so that an instance tells a
     * hash that vanished or went back to an older copy from one an operator edited.
     */
    public static final String VERSION = "config.version";
    static final String DYN_PREFIX = "dyn.";
    static final String DYNURI_PREFIX = "dynuri.";
    static final String PLAN_INFIX = ".plan.";
    public static final String EXCEPTION_INFIX = ".exception.";
    static final String DECLARED_PREFIX = "declared.";
    static final String DENY_PREFIX = "deny.";

    private SysConfigFields() {
    }

    /** {@code dyn.<endpoint>}: the limit of a handler method without annotation. */
    public static String dyn(RuleId endpoint) {
        return DYN_PREFIX + endpoint;
    }

    /** What a {@code dyn.*} field names, {@code <module>.<rule>}; {@code null} for any other field. */
    public static @Nullable String dynTarget(String field) {
        return field.startsWith(DYN_PREFIX) ? field.substring(DYN_PREFIX.length()) : null;
    }

    /** The pattern of a {@code dynuri.*} field; {@code null} for any other field. */
    public static @Nullable String dynUriTarget(String field) {
        return field.startsWith(DYNURI_PREFIX) ? field.substring(DYNURI_PREFIX.length()) : null;
    }

    /** {@code dynuri.<pattern>}: the limit of every path the pattern matches, in every app. */
    public static String dynUri(String pattern) {
        return DYNURI_PREFIX + pattern;
    }

    /** {@code <rule>.plan.<plan>}: the count and window of one plan of a rule that resolves plans. */
    public static String plan(RuleId rule, String plan) {
        return rule + PLAN_INFIX + plan;
    }

    /** {@code <rule>.exception.<identity>}: an operator's exception for one client, with its end. */
    public static String exception(RuleId rule, String identity) {
        return rule + EXCEPTION_INFIX + identity;
    }

    /** {@code deny.<kind>.<target>}: a client refused outright, until a time or for good ({@link DenyList}). */
    public static String deny(DenyList.Kind kind, String target) {
        return kind.rule() + "." + target;
    }

    /** The kind of a {@code deny.ip.*}, {@code deny.user.*} or {@code deny.key.*} field; {@code null} for any other field. */
    public static DenyList.@Nullable Kind denyKind(String field) {
        if (!field.startsWith(DENY_PREFIX)) {
            return null;
        }
        for (DenyList.Kind kind : DenyList.Kind.values()) {
            if (field.startsWith(kind.rule()) && field.length() > kind.rule().length()
                    && field.charAt(kind.rule().length()) == '.') {
                return kind;
            }
        }
        return null;
    }

    /** What a deny-list field names: the address, block, user code or key after {@code deny.<kind>.}. */
    public static String denyTarget(DenyList.Kind kind, String field) {
        return field.substring(kind.rule().length() + 1);
    }

    /** {@code declared.<knob field>}: what the app that started last declared for the knob, for the next merge. */
    public static String declared(String knobField) {
        return DECLARED_PREFIX + knobField;
    }
}
