package dev.ratelimit.interceptor.decision;

/**
 * How a limited request ended, as the limits that look at its outcome read it: the web layer reads a
 * finished response, other callers what they know of their own ending. Asked once per reservation.
 */
public interface Completion {

    /**
     * Whether the request stays counted by a limit with this {@code countWhen} condition. A condition
     * that cannot be evaluated counts the request: a limit that cannot tell errs on its own side.
     */
    boolean counts(String countWhen);
}
