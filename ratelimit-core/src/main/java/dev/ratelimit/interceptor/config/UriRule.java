package dev.ratelimit.interceptor.config;

/** A {@code dynuri.<pattern>} rule: an Ant pattern over the path within the application, and its limit. */
public record UriRule(String pattern, LimitSpec limit) {
}
