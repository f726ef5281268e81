package dev.ratelimit.interceptor.decision;

import dev.ratelimit.interceptor.store.Refund;

/**
 * A unit a request took from a limit that counts only some responses: given back unless the response
 * matches {@code countWhen}.
 *
 * @param countWhen the limit's condition on the response
 * @param refund    what giving the unit back takes
 */
public record Reservation(String countWhen, Refund refund) {
}
