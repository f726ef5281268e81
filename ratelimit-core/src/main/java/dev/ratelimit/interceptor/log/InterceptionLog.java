package dev.ratelimit.interceptor.log;

/**
 * Where interceptions go. Called on the request thread, so an implementation must hand the row off
 * and return at once, and must never throw. Declare a bean of this type to receive them.
 */
@FunctionalInterface
public interface InterceptionLog {

    /** Keeps no record: the default when no log writer is configured. */
    InterceptionLog DISCARD = interception -> { };

    void record(Interception interception);
}
