package dev.ratelimit.interceptor.advice;

import dev.ratelimit.interceptor.rule.RuleId;
import java.util.List;
import java.util.Map;

/**
 * Where every instance adds the demand it recorded ({@link DemandRecorder}) and the advisor reads it back
 * ({@link LimitAdvisor}), per rule and time bucket of each {@link DemandGranularity}: Redis, shared by the instances
 * ({@link RedisDemandStore}), or this process alone, for an app on the in-process store
 * ({@link InProcessDemandStore}).
 */
public interface DemandStore {

    /** Adds one instance's write to the buckets that hold {@code write.epochSecond()}; throws when it cannot. */
    void add(DemandWrite write);

    /** The buckets of {@code rule} that start in {@code [firstStart, lastStart]}, as every instance added to them. */
    List<DemandBucket> read(RuleId rule, DemandGranularity granularity, long firstStart, long lastStart);

    /**
     * What one instance recorded since its last write.
     *
     * @param epochSecond when: the buckets it goes to
     * @param reaches     per rule, the reaches of each bin
     * @param top         per rule, the clients ({@code USER:alice}) with their highest demand in one window
     * @param refused     the client windows refused without the store, and the highest count the store gave them
     * @param windows     per rule (any algorithm), the requests of each window of its length
     */
    record DemandWrite(long epochSecond, Map<RuleId, Map<DemandBin, Long>> reaches, Map<RuleId, Map<String, Long>> top,
                       List<RefusedWindow> refused, Map<RuleId, Map<CountedWindow, Long>> windows) {

        boolean isEmpty() {
            return reaches.isEmpty() && top.isEmpty() && refused.isEmpty() && windows.isEmpty();
        }
    }

    /**
     * One client window's requests refused without the store since the last write, and the highest count the store
     * gave it on this instance.
     *
     * @param window {@code <client>|<window end ms>}
     */
    record RefusedWindow(RuleId rule, String window, long refusals, long highest) {
    }

    /**
     * One bucket of a rule, as every instance added to it.
     *
     * @param reaches the reaches of each bin
     * @param refused per client window ({@code <client>|<window end ms>}) the refusals without the store and the
     *                highest count it gave, as {@code {refusals, highest}}
     * @param top     the clients with the highest demand in one window
     * @param windows the requests of each window of the rule's length, at least the granularity's shortest
     */
    record DemandBucket(Map<DemandBin, Long> reaches, Map<String, long[]> refused, Map<String, Long> top,
                        Map<CountedWindow, Long> windows) {
    }
}
