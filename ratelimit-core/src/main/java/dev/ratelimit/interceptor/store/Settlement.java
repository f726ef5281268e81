package dev.ratelimit.interceptor.store;

/**
 * What a request whose cost is settled after the response really used: it was admitted on an estimate,
 * {@code request.cost()}, and its response said {@code units}. The difference is given back (within the
 * request's window, as a refund is) or charged, past the limit if need be: a debt. For a request whose units
 * were pending ({@link CounterRequest#holdsPendingUnits()}) it also confirms them: a {@code countWhen} request
 * whose response matched is settled at its cost.
 *
 * @param request    the counter request the store decided, the estimate its cost
 * @param reservedAt the {@link Decision#decidedAt()} of that decision
 * @param units      what the request used, 0 or more
 */
public record Settlement(CounterRequest request, long reservedAt, long units) {

    public Settlement {
        if (units < 0) {
            throw new IllegalArgumentException("a request uses 0 units or more, was " + units);
        }
    }

    /** What is charged beyond the estimate: negative for units given back, 0 for none. */
    public long difference() {
        return units - request.cost();
    }
}
