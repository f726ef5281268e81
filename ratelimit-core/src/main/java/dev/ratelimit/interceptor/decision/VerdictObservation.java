package dev.ratelimit.interceptor.decision;

import io.micrometer.common.docs.KeyName;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;
import io.micrometer.observation.docs.ObservationDocumentation;

/**
 * The limiter's decision on a limited request or call, as a Micrometer {@code Observation}: with Micrometer
 * Tracing it is a span inside the request's, as long as the decision took (a slow store shows), with an event
 * when the request is refused.
 */
public enum VerdictObservation implements ObservationDocumentation {

    VERDICT {
        @Override
        public Class<? extends ObservationConvention<? extends Observation.Context>> getDefaultConvention() {
            return DefaultVerdictObservationConvention.class;
        }

        @Override
        public KeyName[] getLowCardinalityKeyNames() {
            return LowCardinalityKeys.values();
        }

        @Override
        public KeyName[] getHighCardinalityKeyNames() {
            return HighCardinalityKeys.values();
        }

        @Override
        public Observation.Event[] getEvents() {
            return Events.values();
        }
    };

    public enum LowCardinalityKeys implements KeyName {
        /** The app's module ({@code ratelimit.module}). */
        MODULE("ratelimit.module"),
        /** The rule of the outcome: the one that refused, else the one that counted; {@code none} when none applied. */
        RULE("ratelimit.rule"),
        /** {@code allowed}, {@code blocked}, {@code shadow_blocked}, {@code denied}, {@code error} or {@code skipped}. */
        OUTCOME("ratelimit.outcome"),
        /** The kind of store that decided: {@code redis}, {@code memory}, or an app's own store's class. */
        STORE("ratelimit.store");

        private final String name;

        LowCardinalityKeys(String name) {
            this.name = name;
        }

        @Override
        public String asString() {
            return name;
        }
    }

    public enum HighCardinalityKeys implements KeyName {
        /** Why the store could not decide (the failure policy then did). */
        FAILURE("ratelimit.failure");

        private final String name;

        HighCardinalityKeys(String name) {
            this.name = name;
        }

        @Override
        public String asString() {
            return name;
        }
    }

    public enum Events implements Observation.Event {
        /** The request was refused: by a limit, the deny list or the failure policy. */
        REFUSED {
            @Override
            public String getName() {
                return "ratelimit.refused";
            }
        }
    }
}
