package dev.ratelimit.interceptor.actuate;

import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.web.annotation.EndpointWebExtension;

/** The {@code ratelimit} endpoint over the web: the clients it names shown as the request's user is authorized. */
@EndpointWebExtension(endpoint = RateLimitEndpoint.class)
public class RateLimitEndpointWebExtension {

    private final RateLimitEndpoint delegate;

    public RateLimitEndpointWebExtension(RateLimitEndpoint delegate) {
        this.delegate = delegate;
    }

    @ReadOperation
    public RateLimitEndpoint.Report report(SecurityContext user) {
        return delegate.report(user);
    }
}
