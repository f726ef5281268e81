package dev.ratelimit.interceptor.store;

import java.time.Duration;
import java.util.List;

/**
 * What a store answers for the counters of one request: decided, every counter; or not decided,
 * none, and the request passes or is refused as the failure policy says. Not deciding is an ordinary
 * answer of the store contract, not an exception: a Redis that does not answer is expected.
 */
public sealed interface StoreResult permits StoreResult.Decided, StoreResult.NotDecided {

    /** @param decisions one per counter, in the order asked */
    record Decided(List<Decision> decisions) implements StoreResult {

        public Decided {
            decisions = List.copyOf(decisions);
        }
    }

    /**
     * @param reason     why, for the log and the actuator endpoint
     * @param refuse     whether the request is refused (503) rather than let through
     * @param retryAfter for a refused request: when to try again
     */
    record NotDecided(String reason, boolean refuse, Duration retryAfter) implements StoreResult {

        /** Not decided; the request passes unless a failure policy around the store says otherwise. */
        public static NotDecided pass(String reason) {
            return new NotDecided(reason, false, Duration.ZERO);
        }

        public static NotDecided refuse(String reason, Duration retryAfter) {
            return new NotDecided(reason, true, retryAfter);
        }
    }
}
