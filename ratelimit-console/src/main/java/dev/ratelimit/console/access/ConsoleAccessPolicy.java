package dev.ratelimit.console.access;

import jakarta.servlet.http.HttpServletRequest;
import java.util.function.Function;

/**
 * Decides who may use the console. The default is the console's own password login; declare a bean
 * of this type to use the app's security instead, for example
 * {@code request -> request.isUserInRole("OPS") ? request.getUserPrincipal().getName() : null}.
 * Such a policy makes everyone it names an operator of every module; a {@link WithRoles} policy (or
 * {@link #of}) gives roles and modules. Every state-changing request is still checked for the console's
 * CSRF token.
 */
@FunctionalInterface
public interface ConsoleAccessPolicy {

    /** The operator's name, recorded in the audit trail; {@code null} when the request may not use the console. */
    String operator(HttpServletRequest request);

    /**
     * The operator with their role and modules; {@code null} when the request may not use the console.
     * By default the operator {@link #operator} names, with every right.
     */
    default ConsoleOperator access(HttpServletRequest request) {
        String name = operator(request);
        return name == null ? null : ConsoleOperator.ofEveryModule(name);
    }

    /**
     * A policy that gives each operator a role and modules, for example viewers from one role of the
     * app's security and operators from another; {@code access} returns {@code null} for a request that
     * may not use the console.
     */
    static ConsoleAccessPolicy of(Function<HttpServletRequest, ConsoleOperator> access) {
        WithRoles policy = access::apply;
        return policy;
    }

    /**
     * What the console's CSRF token is bound to: by default the operator; a policy with sessions of its
     * own returns the session's id, so that each login gets a token of its own.
     */
    default String sessionId(HttpServletRequest request) {
        return operator(request);
    }

    /** A policy that names each operator with a role and modules: the name is the operator's. */
    @FunctionalInterface
    interface WithRoles extends ConsoleAccessPolicy {

        /** The operator with their role and modules; {@code null} when the request may not use the console. */
        @Override
        ConsoleOperator access(HttpServletRequest request);

        @Override
        default String operator(HttpServletRequest request) {
            ConsoleOperator operator = access(request);
            return operator == null ? null : operator.name();
        }
    }
}
