package dev.ratelimit.interceptor.advice;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * A rule's requests per window of its length (the rule's window, at least 5 seconds in the last two days and 30
 * seconds in the week), counted for every algorithm and kind, admitted and refused alike, over every instance.
 *
 * @param requests the requests of the period
 * @param busiest  the most requests of one window
 * @param windows  the windows with requests, oldest first; when they are more than {@link #SHOWN}, each shown window
 *                 is the busiest of as many consecutive ones, so the peaks stay
 */
public record RequestWindows(long requests, long busiest, List<Window> windows) {

    /** Windows shown at most. */
    public static final int SHOWN = 300;

    /** One window and its requests. */
    public record Window(Instant start, Duration length, long requests) {
    }
}
