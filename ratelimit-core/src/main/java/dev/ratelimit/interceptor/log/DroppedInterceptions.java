package dev.ratelimit.interceptor.log;

/**
 * Implemented by an {@link InterceptionLog} that counts the interceptions it could not keep (a full
 * queue, a database that failed), so that metrics and the actuator endpoint can report them.
 */
public interface DroppedInterceptions {

    /** Interceptions given up since the start. */
    long droppedInterceptions();
}
