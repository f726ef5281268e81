package dev.ratelimit.interceptor.testsupport;

/** What a test counts of an answer: admitted (200) or rejected (429); anything else fails the test. */
public final class Statuses {

    private Statuses() {
    }

    public static boolean admitted(int status) {
        if (status != 200 && status != 429) {
            throw new AssertionError("unexpected status " + status);
        }
        return status == 200;
    }
}
