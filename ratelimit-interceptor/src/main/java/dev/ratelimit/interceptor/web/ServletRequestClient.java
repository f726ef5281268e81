package dev.ratelimit.interceptor.web;

import dev.ratelimit.interceptor.identity.DimensionKeys;
import dev.ratelimit.interceptor.identity.RequestClient;
import dev.ratelimit.interceptor.rule.LimitDefinition;
import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;

/** The client of a servlet request, as the identities see it; its address is resolved once. */
class ServletRequestClient implements RequestClient {

    final HttpServletRequest request;
    private final DimensionKeys identities;
    private @Nullable String clientIp;

    ServletRequestClient(HttpServletRequest request, DimensionKeys identities) {
        this.request = request;
        this.identities = identities;
    }

    @Override
    public @Nullable String identity(LimitDefinition limit) {
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
    public @Nullable String user() {
        return identities.user(request);
    }

    @Override
    public @Nullable String verifiedUser() {
        return identities.verifiedUser(request);
    }
}
