package dev.ratelimit.apiindex;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.ratelimit.interceptor.rule.Endpoint;
import dev.ratelimit.interceptor.rule.LimitDefinition;
import dev.ratelimit.interceptor.store.Penalty;
import java.util.List;

/**
 * One handler method in the API index: the JSON value of the field {@code <module>.<rule>} of
 * {@code {p}:{apiindex}:{module}}. Readers ignore properties they do not know, so later versions may
 * add some.
 *
 * @param pattern  the primary URL pattern, empty if the mapping has none
 * @param patterns every URL pattern of the mapping, sorted
 * @param methods  the HTTP methods, sorted; empty means the mapping takes every method
 * @param handler  the Java method, e.g. {@code com.shop.OrderController.create(java.lang.String)}
 * @param limits   the limits its {@code @RateLimit} annotations declare; empty if it has none
 * @param limitsDeclaredOn {@code "class"} when the limits are its controller class's {@code @RateLimit}
 *                 (the method declares none of its own); {@code null} (left out) when they are the method's
 */
public record ApiIndexEntry(String pattern, List<String> patterns, List<String> methods, String handler,
                            List<Limit> limits,
                            @JsonInclude(JsonInclude.Include.NON_NULL) String limitsDeclaredOn) {

    /** The value of {@link #limitsDeclaredOn} for limits declared on the controller class. */
    public static final String CLASS = "class";

    public ApiIndexEntry {
        patterns = List.copyOf(patterns);
        methods = List.copyOf(methods);
        limits = List.copyOf(limits);
    }

    /** An entry whose limits, if any, are declared on the method itself. */
    public ApiIndexEntry(String pattern, List<String> patterns, List<String> methods, String handler,
                         List<Limit> limits) {
        this(pattern, patterns, methods, handler, limits, null);
    }

    public boolean limitsFromClass() {
        return CLASS.equals(limitsDeclaredOn);
    }

    /**
     * A declared limit, before any override from the config hash.
     *
     * @param rule            the rule's id, {@code <module>.<rule>}; its config fields are
     *                        {@code <rule>.check}, {@code .count} and {@code .interval}
     * @param count           requests admitted per window
     * @param intervalSeconds the window in seconds
     * @param dimension       who is counted together: {@code USER}, {@code IP}, {@code METHOD}, {@code GLOBAL}, {@code CUSTOM}
     * @param algorithm       how the counter decides ({@code FIXED_WINDOW}...)
     * @param countWhen       the condition on the response for a request to stay counted; {@code null} when
     *                        every request counts (and in the index of an app built before the field existed)
     * @param blockForMillis  the first block of a client the limit denied ({@code blockFor}); {@code null} for none
     * @param blockForMaxMillis the longest block of a repeat offender; {@code null} for none
     * @param cost            what one request weighs: a number, or its cost expression; {@code null} for 1
     * @param quota           a calendar quota's period and zone ({@code "DAY"}, {@code "MONTH Asia/Tokyo"});
     *                        {@code null} for a window from the first request
     * @param plan            the expression that resolves a client's plan; {@code null} for none
     */
    @JsonInclude(JsonInclude.Include.NON_NULL) // absent knobs are left out: the index stays as small as before
    public record Limit(String rule, long count, long intervalSeconds, String dimension, String algorithm,
                        String countWhen, Long blockForMillis, Long blockForMaxMillis, String cost, String quota,
                        String plan) {

        static Limit of(LimitDefinition limit) {
            Penalty penalty = limit.penalty();
            return new Limit(limit.id(), limit.count(), limit.windowSeconds(), limit.dimension().name(),
                    limit.algorithm().name(), limit.countsSome() ? limit.countWhen() : null,
                    penalty.applies() ? penalty.firstBlockMillis() : null,
                    penalty.applies() ? penalty.longestMillis() : null, limit.cost().describe(),
                    limit.quota().describe(), limit.plan().isEmpty() ? null : limit.plan());
        }
    }

    static ApiIndexEntry of(Endpoint endpoint) {
        return new ApiIndexEntry(endpoint.primaryPattern(), endpoint.patterns(),
                endpoint.httpMethods().stream().sorted().toList(), endpoint.handler(),
                endpoint.limits().stream().map(Limit::of).toList(), endpoint.limitsFromClass() ? CLASS : null);
    }
}
