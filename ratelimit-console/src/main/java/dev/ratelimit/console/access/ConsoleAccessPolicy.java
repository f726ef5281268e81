package dev.ratelimit.console.access;

import jakarta.servlet.http.HttpServletRequest;

/**
 * Decides who may use the console. The default is the console's own password login; declare a bean
 * of this type to use the app's security instead, for example
 * {@code request -> request.isUserInRole("OPS") ? request.getUserPrincipal().getName() : null}.
 * Every state-changing request is still checked for the console's CSRF token.
 */
@FunctionalInterface
public interface ConsoleAccessPolicy {

    /** The operator's name, recorded in the audit trail; {@code null} when the request may not use the console. */
    String operator(HttpServletRequest request);

    /**
     * What the console's CSRF token is bound to: by default the operator; a policy with sessions of its
     * own returns the session's id, so that each login gets a token of its own.
     */
    default String sessionId(HttpServletRequest request) {
        return operator(request);
    }
}
