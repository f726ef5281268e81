package dev.ratelimit.interceptor.decision;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/** Names and tags of the limiter's decisions; a bean of this type replaces {@link DefaultVerdictObservationConvention}. */
public interface VerdictObservationConvention extends ObservationConvention<VerdictContext> {

    @Override
    default boolean supportsContext(Observation.Context context) {
        return context instanceof VerdictContext;
    }
}
