package dev.ratelimit.interceptor.advice;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.LongStream;

/**
 * The demand a rule saw in a period, as the number of client-windows whose demand reached each count: a
 * client that asked 7 times in one window reached 1, 2, ... 7. Built from pieces, each a range of counts and
 * how many times counts in it were reached, spread evenly over the range (a count of its own is exact; a bin
 * above a rule's exact bound is known within its width). For a fixed window of cost 1 that is exactly what a
 * limit decides: a limit {@code L} refuses, in every window, each request past the {@code L}-th, so it refuses
 * the client-windows that reached {@code L + 1} and one request per count reached past {@code L}.
 */
final class DemandHistogram {

    /** Less than any reach spread over a bin, more than the arithmetic's error. */
    private static final double ALMOST_NONE = 1e-9;

    private final List<Piece> pieces = new ArrayList<>();

    /**
     * Adds {@code reached} reaches of the counts in {@code [from, to)}, spread evenly; a negative number takes reaches
     * back (a refund's, written apart from the reaches it undid).
     */
    public void add(long from, long to, long reached) {
        if (from < 1 || to <= from) {
            throw new IllegalArgumentException("not a range of counts: [" + from + ", " + to + ")");
        }
        if (reached != 0) {
            pieces.add(new Piece(from, to, reached));
        }
    }

    void add(DemandBin bin, long reached) {
        add(bin.start(), bin.end(), reached);
    }

    /** Client-windows seen: every one of them reached the count 1. */
    public long clients() {
        return reached(1);
    }

    /** Requests seen: one per count reached. */
    public long requests() {
        return Math.max(0, Math.round(pieces.stream().mapToDouble(Piece::reached).sum()));
    }

    /**
     * The client-windows whose demand reached {@code n}; never below zero (a period may hold a refund's taking back
     * but not the reach it took back).
     */
    public long reached(long n) {
        return Math.max(0, Math.round(spread(n)));
    }

    /** The reaches of {@code n} as the pieces spread them, unrounded. */
    private double spread(long n) {
        double sum = 0;
        for (Piece piece : pieces) {
            if (piece.from <= n && n < piece.to) {
                sum += piece.reached / (double) (piece.to - piece.from);
            }
        }
        return sum;
    }

    /** The client-windows a limit of {@code limit} would have refused a request of. */
    public long refusedClients(long limit) {
        return reached(limit + 1);
    }

    /** The requests a limit of {@code limit} would have refused: one per count reached past it. */
    public long refusedRequests(long limit) {
        double sum = 0;
        for (Piece piece : pieces) {
            long past = piece.to - Math.max(piece.from, limit + 1);
            if (past > 0) {
                sum += piece.reached * (double) past / (piece.to - piece.from);
            }
        }
        return Math.max(0, Math.round(sum));
    }

    /**
     * The highest count reached, 0 when nothing was seen. Reaches change only where a piece begins or ends, so it is
     * the last count before one of those that is still reached once every taking back is counted.
     */
    public long highest() {
        return pieces.stream().flatMapToLong(piece -> LongStream.of(piece.to - 1, piece.from - 1)).filter(n -> n >= 1)
                .boxed().sorted(Comparator.reverseOrder()).filter(n -> spread(n) > ALMOST_NONE).findFirst().orElse(0L);
    }

    /**
     * The smallest limit that refuses a request of at most {@code share} of the client-windows: the limit whose
     * refusals are the heaviest {@code share} of the clients. 0 when nothing was seen.
     */
    public long smallestLimitRefusing(double share) {
        long clients = clients();
        if (clients == 0) {
            return 0;
        }
        long allowed = (long) Math.floor(share * clients);
        long low = 1;
        long high = Math.max(1, highest());
        while (low < high) { // refusedClients falls as the limit grows
            long middle = low + (high - low) / 2;
            if (refusedClients(middle) <= allowed) {
                high = middle;
            } else {
                low = middle + 1;
            }
        }
        return low;
    }

    private record Piece(long from, long to, double reached) {
    }
}
