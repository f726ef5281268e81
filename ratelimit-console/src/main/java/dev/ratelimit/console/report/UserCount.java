package dev.ratelimit.console.report;

/** How often one user was intercepted. */
public record UserCount(String user, long count) {
}
