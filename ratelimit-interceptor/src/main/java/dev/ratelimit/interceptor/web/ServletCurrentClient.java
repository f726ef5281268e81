package dev.ratelimit.interceptor.web;

import dev.ratelimit.interceptor.identity.CurrentClient;
import dev.ratelimit.interceptor.identity.DimensionKeys;
import dev.ratelimit.interceptor.identity.RequestClient;
import org.jspecify.annotations.Nullable;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

/** The client of the servlet request Spring has bound to this thread, read as the interceptor reads it. */
public final class ServletCurrentClient implements CurrentClient {

    private final DimensionKeys identities;

    public ServletCurrentClient(DimensionKeys identities) {
        this.identities = identities;
    }

    @Override
    public @Nullable RequestClient find() {
        RequestAttributes attributes = RequestContextHolder.getRequestAttributes();
        return attributes instanceof ServletRequestAttributes servlet
                ? new ServletRequestClient(servlet.getRequest(), identities) : null;
    }
}
