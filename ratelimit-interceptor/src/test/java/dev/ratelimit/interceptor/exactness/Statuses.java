package dev.ratelimit.interceptor.exactness;

/** What a test counts of an answer: admitted (200) or rejected (429); anything else fails the test. */
final class Statuses {

    private Statuses() {
    }

    static boolean admitted(int status) {
        if (status != 200 && status != 429) {
            throw new AssertionError("unexpected status " + status);
        }
        return status == 200;
    }
}
