package dev.ratelimit.interceptor.metrics;

import java.util.Locale;

/** What one limit did with one request: the {@code outcome} tag of {@code ratelimit.requests}. */
public enum Outcome {

    /** Counted and admitted. */
    ALLOWED,

    /** Counted and rejected. */
    BLOCKED,

    /** Counted and would have been rejected; passed, since the rule is in shadow mode. */
    SHADOW_BLOCKED,

    /** Not counted: the request has no identity for the limit, or its client is whitelisted. */
    SKIPPED,

    /** Not decided: the store failed, and the failure policy passed or refused the request. */
    ERROR,

    /**
     * Refused outright by the deny list, before any limit counted it: metered under the rule {@code deny.ip},
     * {@code deny.user} or {@code deny.key} of the app's module.
     */
    DENIED;

    private final String tag = name().toLowerCase(Locale.ROOT);

    public String tag() {
        return tag;
    }
}
