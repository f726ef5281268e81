package dev.ratelimit.interceptor.web;

import dev.ratelimit.interceptor.rule.LimitDefinition;

/**
 * A request refused because it weighs more than its limit allows in a whole window.
 *
 * @param limit   the limit
 * @param cost    what the request weighs
 * @param message the text, in the request's locale, that says so
 */
public record TooCostly(LimitDefinition limit, long cost, String message) {
}
