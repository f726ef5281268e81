package dev.ratelimit.apiindex;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.ratelimit.interceptor.config.LimitDescription;
import dev.ratelimit.interceptor.rule.Endpoint;
import dev.ratelimit.interceptor.rule.LimitDefinition;
import dev.ratelimit.interceptor.rule.RuleId;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * One handler method in the API index: the JSON value of the field {@code <module>.<rule>} of
 * {@code {p}:{apiindex}:{module}}, an {@link Endpoint} as text. Readers ignore properties they do not
 * know, so later versions may add some.
 *
 * @param pattern  the primary URL pattern (the first of {@code patterns}), empty if the mapping has none
 * @param patterns every URL pattern of the mapping, sorted
 * @param methods  the HTTP methods, sorted; empty means the mapping takes every method
 * @param handler  the Java method, e.g. {@code com.shop.OrderController.create(java.lang.String)}
 * @param limits   the limits its {@code @RateLimit} annotations declare, by rule id, as declared (the config
 *                 hash's overrides not applied); empty if it has none
 * @param limitsDeclaredOn {@code "class"} when the limits are its controller class's {@code @RateLimit}
 *                 (the method declares none of its own); {@code null} (left out) when they are the method's
 * @param kind     {@code "method"} for a limited method of a bean that is not a controller, {@code "code"} for
 *                 a rule defined in code: not HTTP, no pattern, no methods; {@code null} (left out) for a
 *                 handler method
 * @param maxWaitMillis how long a refused call of a bean method waits for its turn; {@code null} (left out) for none
 */
public record ApiIndexEntry(String pattern, List<String> patterns, List<String> methods, String handler,
                            Map<String, LimitDescription> limits,
                            @JsonInclude(JsonInclude.Include.NON_NULL) String limitsDeclaredOn,
                            @JsonInclude(JsonInclude.Include.NON_NULL) String kind,
                            @JsonInclude(JsonInclude.Include.NON_NULL) Long maxWaitMillis) {

    /** The value of {@link #limitsDeclaredOn} for limits declared on the controller class. */
    public static final String CLASS = "class";

    public ApiIndexEntry {
        patterns = List.copyOf(patterns);
        methods = List.copyOf(methods);
        limits = limits == null ? Map.of() : new LinkedHashMap<>(limits);
    }

    /** A handler method's entry. */
    public ApiIndexEntry(String pattern, List<String> patterns, List<String> methods, String handler,
                         Map<String, LimitDescription> limits, String limitsDeclaredOn) {
        this(pattern, patterns, methods, handler, limits, limitsDeclaredOn, null, null);
    }

    static ApiIndexEntry of(Endpoint endpoint) {
        Map<String, LimitDescription> limits = new LinkedHashMap<>();
        endpoint.limits().forEach(limit -> limits.put(limit.id().toString(), LimitDescription.of(limit)));
        return new ApiIndexEntry(endpoint.primaryPattern(), endpoint.patterns(),
                endpoint.httpMethods().stream().sorted().toList(), endpoint.handler(), limits,
                endpoint.limitsFromClass() ? CLASS : null, endpoint.isHttp() ? null : endpoint.kind().key(),
                endpoint.maxWait().isZero() ? null : endpoint.maxWait().toMillis());
    }

    /**
     * The endpoint this entry describes, of {@code module}.
     *
     * @throws IllegalArgumentException when a limit does not read (an index written by another version)
     */
    Endpoint toEndpoint(RuleId id) {
        List<LimitDefinition> declared = new ArrayList<>(limits.size());
        limits.forEach((rule, limit) -> declared.add(limit.toDefinition(ruleOf(id.module(), rule))));
        return new Endpoint(id, kind == null ? Endpoint.Kind.HTTP : Endpoint.Kind.valueOf(kind.toUpperCase(Locale.ROOT)),
                patterns, new TreeSet<>(methods), handler, declared, CLASS.equals(limitsDeclaredOn),
                maxWaitMillis == null ? Duration.ZERO : Duration.ofMillis(maxWaitMillis));
    }

    /** A limit's rule in the index of {@code module}: usually of that module, unless the annotation named another. */
    private static RuleId ruleOf(String module, String rule) {
        RuleId own = RuleId.parse(rule, List.of(module));
        if (own != null) {
            return own;
        }
        int dot = rule.indexOf('.');
        return dot <= 0 ? RuleId.of(module, rule) : RuleId.of(rule.substring(0, dot), rule.substring(dot + 1));
    }
}
