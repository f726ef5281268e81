package dev.ratelimit.consoleapp;

import dev.ratelimit.console.access.ConsoleAccessPolicy;
import dev.ratelimit.console.access.ConsoleOperator;
import dev.ratelimit.console.access.ConsoleRole;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpSession;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.springframework.security.oauth2.client.authentication.OAuth2AuthenticationToken;
import org.springframework.security.oauth2.core.user.OAuth2User;

/**
 * The operator a single sign-on names: their name from one claim, their role and modules from the
 * values of another. The strongest value wins: operator of every module, then operator of some modules,
 * then viewer; a user with none of them may not use the console (403).
 */
final class OidcConsoleAccess implements ConsoleAccessPolicy.WithRoles {

    private static final String MODULE_SEPARATOR = ":";

    private final ConsoleOidcProperties claims;

    OidcConsoleAccess(ConsoleOidcProperties claims) {
        this.claims = claims;
    }

    @Override
    public ConsoleOperator access(HttpServletRequest request) {
        if (!(request.getUserPrincipal() instanceof OAuth2AuthenticationToken token)) {
            return null;
        }
        OAuth2User user = token.getPrincipal();
        String name = user.getAttribute(claims.nameClaim()) instanceof String claimed && !claimed.isBlank()
                ? claimed : user.getName();
        Set<String> modules = new HashSet<>();
        boolean viewer = false;
        for (String value : values(user.getAttribute(claims.rolesClaim()))) {
            if (value.equals(claims.operator())) {
                return ConsoleOperator.ofEveryModule(name);
            }
            String scoped = claims.operator() + MODULE_SEPARATOR;
            if (value.startsWith(scoped) && value.length() > scoped.length()) {
                modules.add(value.substring(scoped.length()));
            }
            viewer |= value.equals(claims.viewer());
        }
        return !modules.isEmpty() ? new ConsoleOperator(name, ConsoleRole.OPERATOR, modules)
                : viewer ? new ConsoleOperator(name, ConsoleRole.VIEWER, Set.of())
                : null;
    }

    /** The console's CSRF token is bound to the login's session, so each sign-in gets a token of its own. */
    @Override
    public String sessionId(HttpServletRequest request) {
        HttpSession session = request.getSession(false);
        return session == null ? null : session.getId();
    }

    /** Providers send groups as a JSON list; some send a single role as a plain string. */
    private static List<String> values(Object claim) {
        if (claim instanceof Collection<?> values) {
            return values.stream().map(String::valueOf).toList();
        }
        return claim instanceof String value ? List.of(value) : List.of();
    }
}
