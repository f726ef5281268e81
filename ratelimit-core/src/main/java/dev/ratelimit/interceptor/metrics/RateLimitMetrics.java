package dev.ratelimit.interceptor.metrics;

import dev.ratelimit.interceptor.rule.LimitDefinition;
import dev.ratelimit.interceptor.rule.RuleId;
import dev.ratelimit.interceptor.store.Decision;
import java.util.List;

/**
 * Receives what the interceptor decided, on the request thread: implementations must only count.
 * Declare beans of this type to receive the events; all of them do.
 */
public interface RateLimitMetrics {

    /** One rule's outcome for one request: a limit's, or the deny list's ({@link Outcome#DENIED}). */
    void outcome(RuleId rule, Outcome outcome);

    /** The time one store call took to decide all limits of one request. */
    void decided(long nanos);

    /**
     * A client refused by a limit (not in shadow mode), and for how long.
     *
     * @param counterKey       the client's counter for the limit
     * @param retryAfterMillis from now until the limit admits the client again
     */
    default void denied(LimitDefinition limit, String counterKey, long retryAfterMillis) {
    }

    /**
     * What the store decided for one counter of a request, admitted or refused, enforced or in shadow mode (the
     * limit advisor's demand).
     *
     * @param counterKey the client's counter for the limit
     */
    default void counted(LimitDefinition limit, String counterKey, Decision decision) {
    }

    /**
     * A refund ({@code countWhen}) of a fixed window undid the counts {@code (above, upTo]} of the client's window:
     * the window's next requests are told them again. Called on the store's thread once the refund is made.
     *
     * @param counterKey the client's counter for the limit
     */
    default void refunded(LimitDefinition limit, String counterKey, long above, long upTo) {
    }

    /** All of them, in order. */
    static RateLimitMetrics all(List<RateLimitMetrics> metrics) {
        if (metrics.size() == 1) {
            return metrics.get(0);
        }
        RateLimitMetrics[] each = metrics.toArray(RateLimitMetrics[]::new); // no iterator per request
        return new RateLimitMetrics() {
            @Override
            public void outcome(RuleId rule, Outcome outcome) {
                for (RateLimitMetrics metric : each) {
                    metric.outcome(rule, outcome);
                }
            }

            @Override
            public void decided(long nanos) {
                for (RateLimitMetrics metric : each) {
                    metric.decided(nanos);
                }
            }

            @Override
            public void denied(LimitDefinition limit, String counterKey, long retryAfterMillis) {
                for (RateLimitMetrics metric : each) {
                    metric.denied(limit, counterKey, retryAfterMillis);
                }
            }

            @Override
            public void counted(LimitDefinition limit, String counterKey, Decision decision) {
                for (RateLimitMetrics metric : each) {
                    metric.counted(limit, counterKey, decision);
                }
            }

            @Override
            public void refunded(LimitDefinition limit, String counterKey, long above, long upTo) {
                for (RateLimitMetrics metric : each) {
                    metric.refunded(limit, counterKey, above, upTo);
                }
            }
        };
    }
}
