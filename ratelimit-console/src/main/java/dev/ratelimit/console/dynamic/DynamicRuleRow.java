package dev.ratelimit.console.dynamic;

/**
 * A {@code dyn.*} or {@code dynuri.*} rule.
 *
 * @param target   the endpoint id of a {@code dyn} rule, the pattern of a {@code dynuri} rule
 * @param module   the module of a {@code dyn} rule's endpoint; {@code null} for a {@code dynuri} rule, which
 *                 every app shares, and for an endpoint of no module known
 * @param endpoint the indexed endpoint of a {@code dyn} rule, {@code null} if no index lists it (or for dynuri)
 * @param problem  why the limiter does not apply it, in the operator's language; {@code null} when it does
 */
public record DynamicRuleRow(String target, String module, String limit, IndexedEndpoint endpoint, String problem) {
}
