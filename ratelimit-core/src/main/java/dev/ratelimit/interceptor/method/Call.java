package dev.ratelimit.interceptor.method;

import dev.ratelimit.interceptor.decision.LimitedRequest;
import dev.ratelimit.interceptor.identity.CurrentClient;
import dev.ratelimit.interceptor.identity.RequestClient;
import org.jspecify.annotations.Nullable;

/**
 * A call made in the app, as the decision sees it: logged as {@code CALL} of its Java method; its client
 * (address, user) is the HTTP request the call happens in, if any: a scheduled job or a message listener
 * has none, and its {@code USER} and {@code IP} limits then do not apply.
 */
abstract class Call implements LimitedRequest {

    /** The interception log's {@code http_method} of a call. */
    static final String CALL = "CALL";

    private final String javaMethod;
    /** The client of the request the call happens in, or {@code null}; found once. */
    final @Nullable RequestClient client;

    /** @param javaMethod the Java method, for the log's {@code uri} */
    Call(String javaMethod, CurrentClient clients) {
        this.javaMethod = javaMethod;
        this.client = clients.find();
    }

    /** A call has no path: no {@code dynuri} rule applies to it. */
    @Override
    public String path() {
        return "";
    }

    @Override
    public @Nullable String clientIp() {
        return client == null ? null : client.clientIp();
    }

    @Override
    public @Nullable String user() {
        return client == null ? null : client.user();
    }

    @Override
    public @Nullable String verifiedUser() {
        return client == null ? null : client.verifiedUser();
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
