package dev.ratelimit.bench.chaos;

/**
 * One response as the chaos run's clients saw it.
 *
 * @param sent         when it was sent, in nanoseconds of the run's clock
 * @param at           when it came back, same clock
 * @param count        the count of the endpoint's own rule in its {@code RateLimit-Policy}, -1 when it had none
 * @param resetSeconds the {@code t} of its {@code RateLimit} field, -1 without: when its window ends
 */
record Observation(long sent, long at, String path, String user, int status, long count, long resetSeconds) {

    boolean admitted() {
        return status == 200;
    }
}
