package dev.ratelimit.interceptor.log.report;

/** How often one user was intercepted. */
public record UserCount(String user, long count) {
}
