package dev.ratelimit.interceptor.decision;

import org.jspecify.annotations.Nullable;

/**
 * How a limited request ended, as the limits that look at its outcome read it: the web layer reads a
 * finished response, other callers what they know of their own ending. Asked once per reservation.
 */
public interface Completion {

    /** A request that never ran (another limit refused it): it counts for nothing and used nothing. */
    Completion NEVER_RAN = new Completion() {
        @Override
        public boolean counts(String countWhen) {
            return false;
        }

        @Override
        public Long cost(String costFromResponse) {
            return 0L;
        }
    };

    /**
     * Whether the request stays counted by a limit with this {@code countWhen} condition. A condition
     * that cannot be evaluated counts the request: a limit that cannot tell errs on its own side.
     */
    boolean counts(String countWhen);

    /**
     * The units the request used, as a limit with this {@code costFromResponse} reads it: a whole number of
     * 0 or more, or {@code null} when it cannot tell, which keeps the estimate the request took.
     */
    default @Nullable Long cost(String costFromResponse) {
        return null;
    }
}
