package dev.ratelimit.interceptor.advice;

/**
 * A window of a rule's request count, whatever its algorithm: {@code [start, start + length)} in epoch seconds, its
 * start a multiple of its length, so that every instance names the same window the same way. Its length is the
 * rule's window, but never under a granularity's shortest ({@link DemandGranularity#shortestWindow()}): that bounds
 * the windows of a bucket.
 */
record CountedWindow(long start, long length) {

    CountedWindow {
        if (length < 1 || start % length != 0) {
            throw new IllegalArgumentException("not a counted window: " + start + "+" + length);
        }
    }

    /** The window of {@code length} seconds (at least {@code shortest}) that holds {@code epochSecond}. */
    static CountedWindow holding(long epochSecond, long length, long shortest) {
        long kept = Math.max(length, shortest);
        return new CountedWindow(Math.floorDiv(epochSecond, kept) * kept, kept);
    }

    /** This window in a granularity whose windows are at least {@code shortest} long. */
    CountedWindow atLeast(long shortest) {
        return length >= shortest ? this : holding(start, length, shortest);
    }

    /** The hash field that names it, {@code <start>:<length>}. */
    String field() {
        return start + ":" + length;
    }

    /** The window a field names. @throws IllegalArgumentException for a field that names none */
    static CountedWindow parse(String field) {
        int colon = field.indexOf(':');
        try {
            return new CountedWindow(Long.parseLong(field, 0, colon, 10),
                    Long.parseLong(field, colon + 1, field.length(), 10));
        } catch (NumberFormatException | IndexOutOfBoundsException e) {
            throw new IllegalArgumentException("not a counted window: " + field, e);
        }
    }
}
