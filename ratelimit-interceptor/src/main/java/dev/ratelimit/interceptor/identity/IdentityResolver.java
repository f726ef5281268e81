package dev.ratelimit.interceptor.identity;

import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;

/**
 * Tells who the user of a request is, for {@code Dimension.USER} limits, the user whitelist and the
 * interception log. Declare a bean of this type to replace the default lookup entirely.
 */
@FunctionalInterface
public interface IdentityResolver {

    /** The user code, or {@code null} when the request has none (its USER limits then do not apply). */
    @Nullable String user(HttpServletRequest request);

    /**
     * The user code as the server established it (a login, a session), or {@code null}: the only one the
     * user whitelist is matched against, since exempting a code the client merely sends would let anyone
     * exempt themselves. By default {@link #user}: override it when {@code user} reads client input.
     */
    default @Nullable String verifiedUser(HttpServletRequest request) {
        return user(request);
    }
}
