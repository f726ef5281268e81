package dev.ratelimit.interceptor.method;

import dev.ratelimit.interceptor.decision.LimitedRequest;
import dev.ratelimit.interceptor.identity.DimensionKeys;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

/**
 * A call made in the app, as the decision sees it: logged as {@code CALL} of its Java method; its client
 * (address, user) is the HTTP request the call happens in, if any: a scheduled job or a message listener
 * has none, and its {@code USER} and {@code IP} limits then do not apply.
 */
abstract class Call implements LimitedRequest {

    /** The interception log's {@code http_method} of a call. */
    static final String CALL = "CALL";

    private final String javaMethod;
    final DimensionKeys identities;
    /** The request the call happens in, or {@code null}; read once. */
    final HttpServletRequest request;

    /** @param javaMethod the Java method, for the log's {@code uri} */
    Call(String javaMethod, DimensionKeys identities) {
        this.javaMethod = javaMethod;
        this.identities = identities;
        RequestAttributes attributes = RequestContextHolder.getRequestAttributes();
        this.request = attributes instanceof ServletRequestAttributes servlet ? servlet.getRequest() : null;
    }

    /** A call has no path: no {@code dynuri} rule applies to it. */
    @Override
    public String path() {
        return "";
    }

    @Override
    public String clientIp() {
        return request == null ? null : identities.clientIp(request);
    }

    @Override
    public String user() {
        return request == null ? null : identities.user(request);
    }

    @Override
    public String verifiedUser() {
        return request == null ? null : identities.verifiedUser(request);
    }

    @Override
    public String httpMethod() {
        return CALL;
    }

    @Override
    public String uri() {
        return javaMethod;
    }
}
