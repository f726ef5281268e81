package dev.ratelimit.interceptor.actuate;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.advice.LimitAdvice;
import dev.ratelimit.interceptor.advice.LimitAdvisor;
import dev.ratelimit.interceptor.advice.RequestWindows;
import dev.ratelimit.interceptor.config.RuleCatalog;
import dev.ratelimit.interceptor.config.RuleDescription;
import dev.ratelimit.interceptor.config.RulesInForce;
import dev.ratelimit.interceptor.rule.LimitDefinition;
import dev.ratelimit.interceptor.rule.RuleId;
import java.time.Clock;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;

/**
 * Actuator endpoint {@code ratelimitadvice}: what a limit would have done to the traffic a rule of this app saw
 * ({@code ?rule=<module>.<rule>&limit=<L>&since=PT1H}; without {@code limit}, the limit in force), from the demand
 * every instance records; for a rule of another algorithm, its requests per window of its length; without
 * {@code rule}, every rule of this app (the fixed-window ones at their limit in force), without curves or clients. The clients it names show as {@code management.endpoint.ratelimitadvice.show-values} says,
 * never by default.
 */
@Endpoint(id = "ratelimitadvice")
public class RateLimitAdviceEndpoint {

    private static final Duration DEFAULT_SINCE = Duration.ofHours(1);
    private static final String HIDDEN = "******";

    private final LimitAdvisor advisor;
    private final RuleCatalog catalog;
    private final EndpointShowValues show;
    private final Clock clock;

    public RateLimitAdviceEndpoint(LimitAdvisor advisor, RuleCatalog catalog, EndpointShowValues show, Clock clock) {
        this.advisor = advisor;
        this.catalog = catalog;
        this.show = show;
        this.clock = clock;
    }

    /** Where there is no user to authorize (JMX): {@code when-authorized} shows the clients, as Spring Boot does. */
    @ReadOperation
    public Object advice(@Nullable String rule, @Nullable Long limit, @Nullable String since) {
        return advice(rule, limit, since, show.shown());
    }

    /** Over the web ({@link RateLimitAdviceEndpointWebExtension}): as the request's user is authorized. */
    Object advice(@Nullable String rule, @Nullable Long limit, @Nullable String since, SecurityContext user) {
        return advice(rule, limit, since, show.shown(user));
    }

    private Object advice(@Nullable String ruleText, @Nullable Long limit, @Nullable String sinceText,
                          boolean shown) {
        Duration since = since(sinceText);
        RulesInForce rules = catalog.current();
        String module = catalog.naming().module();
        if (ruleText == null || ruleText.isBlank()) {
            List<LimitAdvice> inForce = new ArrayList<>();
            List<WindowsAdvice> others = new ArrayList<>();
            for (RuleDescription described : rules.rules()) {
                if (!described.id().module().equals(module)) {
                    continue;
                }
                String algorithm = described.inForce().algorithm();
                if (Algorithm.FIXED_WINDOW.name().equals(algorithm)) {
                    LimitAdvice advice = advise(described.id(), described.inForce().count(), since);
                    inForce.add(new LimitAdvice(advice.rule(), advice.since(), advice.limit(), advice.clients(),
                            advice.requests(), advice.refusedClients(), advice.refusedRequests(), advice.suggested(),
                            advice.highest(), List.of(), List.of(), totals(advice.perWindow())));
                } else {
                    RequestWindows windows = windows(described.id(), since);
                    others.add(new WindowsAdvice(described.id(), since, algorithm, totals(windows)));
                }
            }
            return new RulesAdvice(since, inForce, others);
        }
        RuleId rule = RuleId.parse(ruleText, List.of(module));
        if (rule == null) {
            throw new InvalidEndpointRequestException("rule must be <module>.<rule> of this app (" + module
                    + "), was " + ruleText, "no such rule");
        }
        String algorithm = rules.limit(rule).map(inForce -> inForce.algorithm().name())
                .orElse(Algorithm.FIXED_WINDOW.name());
        if (!Algorithm.FIXED_WINDOW.name().equals(algorithm)) {
            return new WindowsAdvice(rule, since, algorithm, windows(rule, since));
        }
        long candidate = limit != null ? limit : rules.limit(rule).map(LimitDefinition::count)
                .orElseThrow(() -> new InvalidEndpointRequestException(rule + " has no limit in force here: give "
                        + "the limit to weigh", "no limit"));
        LimitAdvice advice = advise(rule, candidate, since);
        if (shown) {
            return advice;
        }
        return new LimitAdvice(advice.rule(), advice.since(), advice.limit(), advice.clients(), advice.requests(),
                advice.refusedClients(), advice.refusedRequests(), advice.suggested(), advice.highest(),
                advice.curve(), advice.topClients().stream()
                .map(client -> new LimitAdvice.Client(HIDDEN, client.demand())).toList(), advice.perWindow());
    }

    private LimitAdvice advise(RuleId rule, long limit, Duration since) {
        try {
            return advisor.advise(rule, limit, since, clock.instant());
        } catch (IllegalArgumentException e) {
            throw new InvalidEndpointRequestException(String.valueOf(e.getMessage()), "bad request");
        }
    }

    private RequestWindows windows(RuleId rule, Duration since) {
        try {
            return advisor.windows(rule, since, clock.instant());
        } catch (IllegalArgumentException e) {
            throw new InvalidEndpointRequestException(String.valueOf(e.getMessage()), "bad request");
        }
    }

    private static RequestWindows totals(RequestWindows windows) {
        return new RequestWindows(windows.requests(), windows.busiest(), List.of());
    }

    private static Duration since(@Nullable String sinceText) {
        Duration since = DEFAULT_SINCE;
        if (sinceText != null && !sinceText.isBlank()) {
            try {
                since = Duration.parse(sinceText);
            } catch (DateTimeParseException e) {
                throw new InvalidEndpointRequestException("since must be an ISO-8601 duration (PT1H, P7D), was "
                        + sinceText, "bad since");
            }
        }
        return since;
    }

    /**
     * Every rule of this app: the fixed-window ones at their limit in force, the others' requests.
     *
     * @param since  how far back
     * @param rules  each fixed-window rule's advice at its limit in force, without curve, clients or windows
     * @param others each rule of another algorithm or kind: its requests and busiest window, without the windows
     */
    public record RulesAdvice(Duration since, List<LimitAdvice> rules, List<WindowsAdvice> others) {
    }

    /**
     * A rule of another algorithm than the fixed window (sliding windows, token buckets, concurrency limits): what a
     * limit would have refused is not recorded for those, the requests per window of the rule's length are.
     *
     * @param algorithm the rule's algorithm in force
     * @param perWindow its requests per window of its length, over all clients
     */
    public record WindowsAdvice(RuleId rule, Duration since, String algorithm, RequestWindows perWindow) {
    }
}
