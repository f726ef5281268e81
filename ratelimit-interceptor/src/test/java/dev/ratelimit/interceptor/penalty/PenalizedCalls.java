package dev.ratelimit.interceptor.penalty;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.Dimension;
import dev.ratelimit.interceptor.RateLimit;
import org.springframework.stereotype.Service;

/**
 * The {@code CALL} kind of {@link PenaltyMatrixContract}: a limited method of a bean that is not a controller,
 * per algorithm, rule {@code penalty-CALL-<ALGORITHM>}, per user (the first argument), with a penalty; on the
 * algorithms that count per window it counts the calls that failed ({@code countWhen}), so that the calls
 * running hold their units pending, as a login does. A call with {@code run} is held at the gate of that run
 * while it runs.
 */
@Service
public class PenalizedCalls {

    private static final String FAILED = "#result == false";

    /** Calls the method of {@code algorithm} (through its proxy: a call from within would not be limited). */
    public static boolean call(PenalizedCalls calls, Algorithm algorithm, String user, boolean ok, String run)
            throws InterruptedException {
        return switch (algorithm) {
            case FIXED_WINDOW -> calls.fixedWindow(user, ok, run);
            case SLIDING_WINDOW -> calls.slidingWindow(user, ok, run);
            case SLIDING_LOG -> calls.slidingLog(user, ok, run);
            case TOKEN_BUCKET -> calls.tokenBucket(user, ok, run);
            case CONCURRENCY -> calls.concurrency(user, ok, run);
        };
    }

    @RateLimit(rule = "penalty-CALL-FIXED_WINDOW", count = PenalizedController.COUNT,
            interval = PenalizedController.WINDOW, penalty = PenalizedController.BLOCK, dimension = Dimension.CUSTOM,
            key = "#user", countWhen = FAILED)
    public boolean fixedWindow(String user, boolean ok, String run) throws InterruptedException {
        PenalizedController.ran(run);
        return ok;
    }

    @RateLimit(rule = "penalty-CALL-SLIDING_WINDOW", count = PenalizedController.COUNT,
            interval = PenalizedController.WINDOW, penalty = PenalizedController.BLOCK, dimension = Dimension.CUSTOM,
            key = "#user", countWhen = FAILED, algorithm = Algorithm.SLIDING_WINDOW)
    public boolean slidingWindow(String user, boolean ok, String run) throws InterruptedException {
        PenalizedController.ran(run);
        return ok;
    }

    @RateLimit(rule = "penalty-CALL-SLIDING_LOG", count = PenalizedController.COUNT,
            interval = PenalizedController.WINDOW, penalty = PenalizedController.BLOCK, dimension = Dimension.CUSTOM,
            key = "#user", countWhen = FAILED, algorithm = Algorithm.SLIDING_LOG)
    public boolean slidingLog(String user, boolean ok, String run) throws InterruptedException {
        PenalizedController.ran(run);
        return ok;
    }

    @RateLimit(rule = "penalty-CALL-TOKEN_BUCKET", count = PenalizedController.COUNT,
            interval = PenalizedController.WINDOW, penalty = PenalizedController.BLOCK, dimension = Dimension.CUSTOM,
            key = "#user", countWhen = FAILED, algorithm = Algorithm.TOKEN_BUCKET)
    public boolean tokenBucket(String user, boolean ok, String run) throws InterruptedException {
        PenalizedController.ran(run);
        return ok;
    }

    @RateLimit(rule = "penalty-CALL-CONCURRENCY", count = PenalizedController.COUNT, penalty = PenalizedController.BLOCK,
            dimension = Dimension.CUSTOM, key = "#user", algorithm = Algorithm.CONCURRENCY)
    public boolean concurrency(String user, boolean ok, String run) throws InterruptedException {
        PenalizedController.ran(run);
        return ok;
    }
}
