package dev.ratelimit.interceptor.actuate;

import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.web.annotation.EndpointWebExtension;

/** The {@code ratelimitrules} endpoint over the web: the clients it names shown as the request's user is authorized. */
@EndpointWebExtension(endpoint = RateLimitRulesEndpoint.class)
public class RateLimitRulesEndpointWebExtension {

    private final RateLimitRulesEndpoint delegate;

    public RateLimitRulesEndpointWebExtension(RateLimitRulesEndpoint delegate) {
        this.delegate = delegate;
    }

    @ReadOperation(produces = RateLimitRulesEndpoint.YAML)
    public String rules(SecurityContext user) {
        return delegate.rules(user);
    }
}
