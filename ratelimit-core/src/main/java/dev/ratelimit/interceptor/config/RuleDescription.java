package dev.ratelimit.interceptor.config;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.ratelimit.interceptor.rule.Endpoint;
import dev.ratelimit.interceptor.rule.RuleId;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import org.jspecify.annotations.Nullable;

/**
 * One rule as it is in force beside what declares it: the one description of a rule that every view
 * renders (the actuator endpoint, the console, the rules document), made by {@link RulesInForce} alone.
 *
 * @param source          what declares the rule
 * @param kind            what it limits: requests ({@code http}, left out of the JSON), calls of a bean method
 *                        ({@code method}), or the calls code counts against a rule defined in code ({@code code})
 * @param handler         for a call, the Java method (for a rule defined in code, the bean that defines it);
 *                        {@code null} for requests, whose pattern says where the rule applies
 * @param declaredOnClass for an annotation: whether it is the controller class's, not the method's own
 * @param pattern         the endpoint's primary URL pattern (of an annotated rule several endpoints share, each
 *                        one's, comma-separated), or a {@code dynuri} rule's pattern; empty for a call
 * @param httpMethods     the endpoint's HTTP methods; empty for every method (and for a {@code dynuri} rule)
 * @param maxWaitMillis   how long a refused call of its bean method waits for its turn; {@code null} for none
 * @param declared        what the annotation declares; {@code null} for a dynamic rule, which operators make
 * @param inForce         what the limiter applies, before a client's plan or exception
 * @param overridden      the knobs whose value in force differs from the declaration: operators' values
 * @param plans           the count and window of each plan, {@code <count>/<interval>}
 * @param exceptions      each client's exception still in force
 * @param ignored         the rule's fields the limiter does not apply, with the reason
 * @param knobs           each knob's canonical value in force, as {@link #text} writes it
 * @param declaredKnobs   each knob's declared canonical value; a dynamic rule has its switch's and mode's only
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record RuleDescription(RuleId id, Source source, @JsonIgnore Endpoint.Kind kind, @Nullable String handler,
                              @JsonInclude(JsonInclude.Include.NON_DEFAULT) boolean declaredOnClass, String pattern,
                              List<String> httpMethods, @Nullable Long maxWaitMillis,
                              @Nullable LimitDescription declared, LimitDescription inForce,
                              boolean enabled, RuleMode mode, List<Knob> overridden, SortedMap<String, String> plans,
                              SortedMap<String, IdentityException> exceptions, SortedMap<String, String> ignored,
                              @JsonIgnore Map<Knob, String> knobs, @JsonIgnore Map<Knob, String> declaredKnobs) {

    public RuleDescription {
        httpMethods = List.copyOf(httpMethods);
        overridden = List.copyOf(overridden);
        knobs = Map.copyOf(knobs);
        declaredKnobs = Map.copyOf(declaredKnobs);
    }

    /** What declares a rule. */
    public enum Source {
        /** {@code @RateLimit} on the handler method or its controller class. */
        ANNOTATION,
        /** {@code dyn.<module>.<rule>}: an operator's limit on a handler method without annotation. */
        DYN,
        /** {@code dynuri.<pattern>}: an operator's limit on every path a pattern matches. */
        DYNURI;

        @JsonValue
        public String key() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** The kind as the JSON writes it: left out for requests, as in the API index. */
    @JsonProperty("kind")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public @Nullable String kindKey() {
        return kind == Endpoint.Kind.HTTP ? null : kind.key();
    }

    /** A knob's value in force, as documents and views write it: {@code on}, {@code 5}, {@code shadow}, {@code 300..3600}. */
    public String text(Knob knob) {
        return knob.text(Objects.requireNonNull(knobs.get(knob), "every knob has a value in force"));
    }

    /** A knob's declared value, as {@link #text} writes it; {@code null} when nothing declares it. */
    public @Nullable String declaredText(Knob knob) {
        String declared = declaredKnobs.get(knob);
        return declared == null ? null : knob.text(declared);
    }
}
