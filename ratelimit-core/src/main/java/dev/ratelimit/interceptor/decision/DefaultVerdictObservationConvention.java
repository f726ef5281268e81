package dev.ratelimit.interceptor.decision;

import dev.ratelimit.interceptor.decision.VerdictObservation.HighCardinalityKeys;
import dev.ratelimit.interceptor.decision.VerdictObservation.LowCardinalityKeys;
import io.micrometer.common.KeyValues;

/**
 * The observation {@code ratelimit.verdict} (not {@code ratelimit.decision}, the timer of store calls), named
 * {@code ratelimit <rule>} on a trace, with the module, rule, outcome and store as low-cardinality keys and the
 * store's failure, when it failed, as a high-cardinality one.
 */
public class DefaultVerdictObservationConvention implements VerdictObservationConvention {

    static final String NAME = "ratelimit.verdict";
    private static final String NONE = "none";

    @Override
    public String getName() {
        return NAME;
    }

    @Override
    public String getContextualName(VerdictContext context) {
        return context.rule() == null ? "ratelimit" : "ratelimit " + context.rule().rule();
    }

    @Override
    public KeyValues getLowCardinalityKeyValues(VerdictContext context) {
        return KeyValues.of(LowCardinalityKeys.MODULE.withValue(context.module()),
                LowCardinalityKeys.RULE.withValue(context.rule() == null ? NONE : context.rule().rule()),
                LowCardinalityKeys.OUTCOME.withValue(context.outcome().tag()),
                LowCardinalityKeys.STORE.withValue(context.store()));
    }

    @Override
    public KeyValues getHighCardinalityKeyValues(VerdictContext context) {
        return context.failure() == null ? KeyValues.empty()
                : KeyValues.of(HighCardinalityKeys.FAILURE.withValue(context.failure()));
    }
}
