package dev.ratelimit.interceptor.identity;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpSession;
import java.security.Principal;
import org.jspecify.annotations.Nullable;

/**
 * The default user lookup: request parameter, then session attribute, then the authenticated
 * principal ({@code HttpServletRequest.getUserPrincipal()}, which Spring Security and the servlet
 * container both fill). Never creates a session. The request parameter is the client's word, so only
 * the session attribute and the principal make a {@linkplain #verifiedUser verified user}.
 */
public class RequestUserResolver implements IdentityResolver {

    private final String parameterName;
    private final String sessionAttribute;
    private final boolean usePrincipal;

    public RequestUserResolver(String parameterName, String sessionAttribute, boolean usePrincipal) {
        this.parameterName = parameterName;
        this.sessionAttribute = sessionAttribute;
        this.usePrincipal = usePrincipal;
    }

    @Override
    public @Nullable String user(HttpServletRequest request) {
        String user = blankToNull(parameterName.isEmpty() ? null : new ParameterGuard(request).getParameter(parameterName));
        return user != null ? user : verifiedUser(request);
    }

    @Override
    public @Nullable String verifiedUser(HttpServletRequest request) {
        String user = null;
        if (!sessionAttribute.isEmpty()) {
            HttpSession session = request.getSession(false);
            Object attribute = session == null ? null : session.getAttribute(sessionAttribute);
            user = attribute == null ? null : blankToNull(attribute.toString());
        }
        if (user == null && usePrincipal) {
            Principal principal = request.getUserPrincipal();
            user = principal == null ? null : blankToNull(principal.getName());
        }
        return user;
    }

    private static @Nullable String blankToNull(@Nullable String value) {
        return value == null || value.isBlank() ? null : value.strip();
    }
}
