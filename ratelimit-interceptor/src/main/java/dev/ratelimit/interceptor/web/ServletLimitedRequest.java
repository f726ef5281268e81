package dev.ratelimit.interceptor.web;

import dev.ratelimit.interceptor.decision.LimitedRequest;
import dev.ratelimit.interceptor.identity.RequestExpressions;
import dev.ratelimit.interceptor.identity.DimensionKeys;
import dev.ratelimit.interceptor.rule.LimitDefinition;
import dev.ratelimit.interceptor.rule.RequestCost;
import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;
import org.springframework.web.util.UrlPathHelper;

/** A servlet request as the decision sees it: its client, what it costs, where it goes. */
final class ServletLimitedRequest extends ServletRequestClient implements LimitedRequest {

    private final RequestExpressions costs;

    ServletLimitedRequest(HttpServletRequest request, DimensionKeys identities, RequestExpressions costs) {
        super(request, identities);
        this.costs = costs;
    }

    @Override
    public long cost(LimitDefinition limit) {
        RequestCost cost = limit.cost();
        return cost.isExpression() ? costs.cost(cost.expression(), request) : cost.fixed();
    }

    @Override
    public @Nullable String plan(LimitDefinition limit) {
        return costs.plan(limit.plan(), request);
    }

    @Override
    public String path() {
        return UrlPathHelper.defaultInstance.getPathWithinApplication(request);
    }

    @Override
    public String httpMethod() {
        return request.getMethod();
    }

    @Override
    public String uri() {
        return request.getRequestURI();
    }
}
