package dev.ratelimit.interceptor.actuate;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.web.annotation.EndpointWebExtension;

/** The {@code ratelimitadvice} endpoint over the web: the clients it names shown as the request's user is authorized. */
@EndpointWebExtension(endpoint = RateLimitAdviceEndpoint.class)
public class RateLimitAdviceEndpointWebExtension {

    private final RateLimitAdviceEndpoint delegate;

    public RateLimitAdviceEndpointWebExtension(RateLimitAdviceEndpoint delegate) {
        this.delegate = delegate;
    }

    @ReadOperation
    public Object advice(@Nullable String rule, @Nullable Long limit, @Nullable String since, SecurityContext user) {
        return delegate.advice(rule, limit, since, user);
    }
}
