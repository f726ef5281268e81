package dev.ratelimit.interceptor.store;

/**
 * Asked with a request of a hot counter: should the request be admitted, take up to {@code units} more for
 * the asking instance to admit its next requests from (a batch of permits), but never so many that it holds
 * more than its share of what is left: the room left after the request and the {@code held} permits it holds
 * already, over {@code sharers}, the instances sharing the counter.
 */
public record BatchRequest(long units, int sharers, long held) {

    public BatchRequest {
        if (units < 1 || sharers < 1 || held < 0) {
            throw new IllegalArgumentException("a batch asks for at least 1 unit over at least 1 instance, holding "
                    + "none or more, was " + units + " over " + sharers + " holding " + held);
        }
    }
}
