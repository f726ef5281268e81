package dev.ratelimit.console.live;

import dev.ratelimit.interceptor.internal.instance.RunningInstance;
import java.time.Instant;
import java.util.List;

/**
 * What the overview shows of now, as JSON for its script: requests per second over the span (the
 * last hour unless another is asked for) for the whole system and per module, the rules blocking most
 * in the last minutes, and the instances.
 *
 * @param span        the {@link LiveSpan} label
 * @param times       the start of each bucket, epoch milliseconds, oldest first; the rates have one value each
 * @param stepSeconds the bucket size
 * @param topRules    by blocked requests in the last {@link LiveTraffic#RECENT}, most first
 * @param error       why the statistics could not be read (Redis away), or {@code null}
 */
public record LiveView(Instant at, String span, int stepSeconds, List<Long> times, Rates total, List<ModuleRates> modules,
                       List<RuleNow> topRules, List<RunningInstance> instances, String error) {

    /** Requests per second by outcome, one value per bucket; {@code denied}: refused by the deny list. */
    public record Rates(List<Double> allowed, List<Double> blocked, List<Double> shadowBlocked, List<Double> denied) {
    }

    public record ModuleRates(String module, Rates rates) {
    }

    /**
     * One rule's requests in the last minutes.
     *
     * @param rule its id, {@code <module>.<name>}
     */
    public record RuleNow(String rule, String module, String name, long allowed, long blocked, long shadowBlocked,
                          long denied) {
    }
}
