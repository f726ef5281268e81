package dev.ratelimit.interceptor.store;

import io.lettuce.core.RedisConnectionException;

/**
 * The limiter's connection to Redis is not made. The connection says so in the log once, when the attempts
 * begin to fail, with what is degraded until it is made; whoever meets this failure afterwards (the config
 * reads, the start-up tasks, the statistics) logs it only at debug level, so that an app started while Redis
 * is away logs one warning, not one per part of the limiter.
 */
public final class RedisUnreachableException extends RedisConnectionException {

    RedisUnreachableException(String message, Throwable cause) {
        super(message, cause);
    }

    /** Whether {@code failure}, or what caused it, is this: already said in the log. */
    public static boolean isCause(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof RedisUnreachableException) {
                return true;
            }
        }
        return false;
    }
}
