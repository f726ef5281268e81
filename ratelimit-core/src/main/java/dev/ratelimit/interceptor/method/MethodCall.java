package dev.ratelimit.interceptor.method;

import dev.ratelimit.interceptor.decision.Completion;
import dev.ratelimit.interceptor.identity.CounterIdentity;
import dev.ratelimit.interceptor.identity.CurrentClient;
import dev.ratelimit.interceptor.rule.Endpoint;
import dev.ratelimit.interceptor.rule.LimitDefinition;
import dev.ratelimit.interceptor.rule.RequestCost;
import java.lang.reflect.Method;
import org.jspecify.annotations.Nullable;
import org.springframework.expression.EvaluationContext;

/**
 * A call of a limited bean method: its {@code CUSTOM} key, cost and plan read from the call's arguments;
 * {@code USER} and {@code IP} from the HTTP request it happens in, if any; then how it ended, for
 * {@code countWhen} and {@code costFromResponse} ({@code #result}, {@code #exception}).
 */
final class MethodCall extends Call {

    private final CallExpressions expressions;
    private final Method method;
    private final Object[] args;
    private final @Nullable Object target;
    /** Made when an expression first reads the call: a limit per method or of a fixed cost needs none. */
    private @Nullable EvaluationContext context;

    MethodCall(Endpoint endpoint, Method method, Object[] args, @Nullable Object target,
               CallExpressions expressions, CurrentClient clients) {
        super(endpoint.handler(), clients);
        this.expressions = expressions;
        this.method = method;
        this.args = args;
        this.target = target;
    }

    @Override
    public @Nullable String identity(LimitDefinition limit) {
        return switch (limit.dimension()) {
            case CUSTOM -> CounterIdentity.keyPart(expressions.key(limit.key(), context()));
            case METHOD, GLOBAL -> CounterIdentity.EVERYONE;
            case USER, IP -> client == null ? null : client.identity(limit);
        };
    }

    @Override
    public long cost(LimitDefinition limit) {
        RequestCost cost = limit.cost();
        return cost.isExpression() ? expressions.cost(cost.expression(), context()) : cost.fixed();
    }

    @Override
    public @Nullable String plan(LimitDefinition limit) {
        return expressions.plan(limit.plan(), context());
    }

    /** How the call ended, for the limits that read it ({@code countWhen}, {@code costFromResponse}). */
    Completion ended(@Nullable Object result, @Nullable Throwable exception) {
        EvaluationContext ended = context();
        ended.setVariable("result", result);
        ended.setVariable("exception", exception);
        return new Completion() {
            @Override
            public boolean counts(String countWhen) {
                return expressions.counts(countWhen, ended);
            }

            @Override
            public @Nullable Long cost(String costFromResponse) {
                return expressions.used(costFromResponse, ended);
            }
        };
    }

    private EvaluationContext context() {
        if (context == null) {
            context = expressions.context(method, args, target);
        }
        return context;
    }
}
