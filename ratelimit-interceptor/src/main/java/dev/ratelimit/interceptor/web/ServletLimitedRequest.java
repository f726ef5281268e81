package dev.ratelimit.interceptor.web;

import dev.ratelimit.interceptor.decision.LimitedRequest;
import dev.ratelimit.interceptor.identity.RequestExpressions;
import dev.ratelimit.interceptor.identity.DimensionKeys;
import dev.ratelimit.interceptor.rule.LimitDefinition;
import dev.ratelimit.interceptor.rule.RequestCost;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.web.util.UrlPathHelper;

/** A servlet request as the decision sees it; the client address is resolved once. */
final class ServletLimitedRequest implements LimitedRequest {

    private final HttpServletRequest request;
    private final DimensionKeys identities;
    private final RequestExpressions costs;
    private String clientIp;

    ServletLimitedRequest(HttpServletRequest request, DimensionKeys identities, RequestExpressions costs) {
        this.request = request;
        this.identities = identities;
        this.costs = costs;
    }

    @Override
    public long cost(LimitDefinition limit) {
        RequestCost cost = limit.cost();
        return cost.isExpression() ? costs.cost(cost.expression(), request) : cost.fixed();
    }

    @Override
    public String plan(LimitDefinition limit) {
        return costs.plan(limit.plan(), request);
    }

    @Override
    public String path() {
        return UrlPathHelper.defaultInstance.getPathWithinApplication(request);
    }

    @Override
    public String identity(LimitDefinition limit) {
        return identities.identity(request, limit);
    }

    @Override
    public String clientIp() {
        if (clientIp == null) {
            clientIp = identities.clientIp(request);
        }
        return clientIp;
    }

    @Override
    public String user() {
        return identities.user(request);
    }

    @Override
    public String verifiedUser() {
        return identities.verifiedUser(request);
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
