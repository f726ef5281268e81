package dev.ratelimit.interceptor.config;

/** Field names of the {@code {p}:sysconfig} hash. */
public final class SysConfigFields {

    public static final String GLOBAL_CHECK = "global.check";
    public static final String GLOBAL_MODE = "global.mode";
    public static final String LOG_CHECK = "log.check";
    public static final String WHITELIST_IPS = "whitelist.ips";
    public static final String WHITELIST_USERS = "whitelist.users";
    public static final String DYN_PREFIX = "dyn.";
    public static final String DYNURI_PREFIX = "dynuri.";
    public static final String CHECK_SUFFIX = ".check";
    public static final String INTERVAL_SUFFIX = ".interval";
    public static final String COUNT_SUFFIX = ".count";
    public static final String MODE_SUFFIX = ".mode";
    /** {@code <rule>.block}: the penalty of a denied client, {@code <seconds>} or {@code <first>..<longest>}, 0 for none. */
    public static final String BLOCK_SUFFIX = ".block";
    /** {@code <rule>.plan.<plan>}: the count and window of one plan of a rule that resolves plans. */
    public static final String PLAN_INFIX = ".plan.";
    /** {@code <rule>.exception.<identity>}: an operator's exception for one client, with its end. */
    public static final String EXCEPTION_INFIX = ".exception.";
    /** {@code declared.<knob>}: what the app that started last declared for the knob, for the next merge. */
    public static final String DECLARED_PREFIX = "declared.";

    private SysConfigFields() {
    }
}
