package dev.ratelimit.interceptor.advice;

import dev.ratelimit.interceptor.rule.RuleId;
import java.time.Duration;
import java.util.List;

/**
 * What a limit would have done to a rule's recorded traffic of a period (fixed windows of cost 1: exact up to
 * the rule's exact bound).
 *
 * @param rule            the rule
 * @param since           how far back the period reaches (whole recording buckets: a little more)
 * @param limit           the candidate limit
 * @param clients         client-windows seen: one per client and window of the rule
 * @param requests        requests seen, admitted and refused
 * @param refusedClients  the client-windows the candidate would have refused a request of
 * @param refusedRequests the requests the candidate would have refused
 * @param suggested       the smallest limit that refuses a request of at most {@link LimitAdvisor#SUGGESTED_SHARE} of
 *                        the client-windows; 0 when nothing was seen
 * @param highest         the highest demand of a client in one window
 * @param curve           for limits from 1 to past the highest demand, what each would have refused
 * @param topClients      the clients with the highest demand in one window, highest first: those a lower limit
 *                        refuses first
 * @param perWindow       the rule's requests per window of its length, over all clients
 */
public record LimitAdvice(RuleId rule, Duration since, long limit, long clients, long requests, long refusedClients,
                          long refusedRequests, long suggested, long highest, List<Point> curve,
                          List<Client> topClients, RequestWindows perWindow) {

    /** What one limit would have refused. */
    public record Point(long limit, long refusedClients, long refusedRequests) {
    }

    /** A client (its kind and identity: {@code USER:alice}) and its highest demand in one window. */
    public record Client(String client, long demand) {
    }
}
