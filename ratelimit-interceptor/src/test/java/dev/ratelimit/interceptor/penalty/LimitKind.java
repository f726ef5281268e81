package dev.ratelimit.interceptor.penalty;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.rule.Endpoint;
import dev.ratelimit.interceptor.rule.LimitDefinition;
import java.util.EnumSet;
import java.util.Set;

/**
 * The kinds of limit of {@link PenaltyMatrixContract}: one per attribute of {@code @RateLimit} that makes a kind
 * of limit, the limits of one client from the config hash (a plan's, an exception's), and one per kind of
 * endpoint that counts (requests, calls of a bean method, calls counted in code); each on the algorithms the
 * library lets it take. A new algorithm joins every kind that takes every algorithm but those named.
 */
public enum LimitKind {

    PLAIN(null, Endpoint.Kind.HTTP, EnumSet.allOf(Algorithm.class)),
    COUNT_WHEN("countWhen", Endpoint.Kind.HTTP, allBut(Algorithm.CONCURRENCY)),
    COST("cost", Endpoint.Kind.HTTP, allBut(Algorithm.CONCURRENCY)),
    COST_EXPRESSION("costExpression", Endpoint.Kind.HTTP, allBut(Algorithm.CONCURRENCY)),
    /** Only the algorithms that carry a debt into the time after it. */
    COST_FROM_RESPONSE("costFromResponse", Endpoint.Kind.HTTP, EnumSet.of(Algorithm.FIXED_WINDOW, Algorithm.TOKEN_BUCKET)),
    /** A calendar period is a fixed window. */
    QUOTA("quota", Endpoint.Kind.HTTP, EnumSet.of(Algorithm.FIXED_WINDOW)),
    /** The count of the client's plan, from the config hash. */
    PLAN("plan", Endpoint.Kind.HTTP, EnumSet.allOf(Algorithm.class)),
    /** An operator's exception for the client, from the config hash, on the {@link #PLAIN} rule. */
    EXCEPTION(null, Endpoint.Kind.HTTP, EnumSet.allOf(Algorithm.class)),
    CALL(null, Endpoint.Kind.METHOD, EnumSet.allOf(Algorithm.class)),
    /** No call's end would release a slot of a rule counted in code. */
    CODE(null, Endpoint.Kind.CODE, allBut(Algorithm.CONCURRENCY));

    /** The attributes of {@code @RateLimit} that are no kind of limit of their own. */
    static final Set<String> NOT_KINDS = Set.of("module", "rule", "count", "interval", "unit", "dimension",
            "algorithm", "key", "messageKey", "penalty", "penaltyMax", "zone", "maxWait");

    private final String attribute;
    private final Endpoint.Kind endpoint;
    private final Set<Algorithm> algorithms;

    LimitKind(String attribute, Endpoint.Kind endpoint, Set<Algorithm> algorithms) {
        this.attribute = attribute;
        this.endpoint = endpoint;
        this.algorithms = algorithms;
    }

    /** The attribute of {@code @RateLimit} that makes the kind, or {@code null}. */
    public String attribute() {
        return attribute;
    }

    public Endpoint.Kind endpoint() {
        return endpoint;
    }

    public Set<Algorithm> algorithms() {
        return algorithms;
    }

    /** Whether {@code limit} is of this kind, as far as its definition tells. */
    boolean describes(LimitDefinition limit) {
        return switch (this) {
            case COUNT_WHEN -> limit.countsSome();
            case COST -> limit.cost().fixed() > 1 && !limit.settlesCost();
            case COST_EXPRESSION -> limit.cost().isExpression();
            case COST_FROM_RESPONSE -> limit.settlesCost();
            case QUOTA -> limit.quota().isCalendar();
            case PLAN -> !limit.plan().isEmpty();
            case PLAIN, EXCEPTION, CODE -> !limit.countsSome() && !limit.cost().isExpression() && limit.cost().fixed() == 1;
            case CALL -> true;
        };
    }

    /** The kind whose fixture the kind's client is counted by: an exception is one client's on a plain limit. */
    LimitKind fixture() {
        return this == EXCEPTION ? PLAIN : this;
    }

    private static Set<Algorithm> allBut(Algorithm excluded) {
        return EnumSet.complementOf(EnumSet.of(excluded));
    }
}
