package dev.ratelimit.interceptor.store;

/**
 * A store's answer for one counter.
 *
 * @param allowed          whether the request is admitted
 * @param limit            requests per window
 * @param remaining        requests still admitted in this window after this one
 * @param retryAfterMillis when denied: the earliest time from now at which a request is admitted again
 * @param resetMillis      time from now until the quota is whole again
 */
public record Decision(boolean allowed, long limit, long remaining, long retryAfterMillis, long resetMillis) {
}
