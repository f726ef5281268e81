package dev.ratelimit.interceptor.store;

/** How limited requests are decided while Redis does not answer: {@code ratelimit.redis-failure.mode}. */
public enum FailurePolicy {

    /** In this process, by the same rules; each instance admits its share of a limit. */
    LOCAL("deciding in this process (ratelimit.redis-failure.mode=local)"),

    /** Not at all: every request passes. */
    OPEN("letting every request pass (ratelimit.redis-failure.mode=open)"),

    /** Not at all: every limited request is refused with 503 and {@code Retry-After}. */
    CLOSED("refusing limited requests with 503 (ratelimit.redis-failure.mode=closed)");

    private final String whileRedisIsAway;

    FailurePolicy(String whileRedisIsAway) {
        this.whileRedisIsAway = whileRedisIsAway;
    }

    /** What happens to requests meanwhile, for the log. */
    public String whileRedisIsAway() {
        return whileRedisIsAway;
    }
}
