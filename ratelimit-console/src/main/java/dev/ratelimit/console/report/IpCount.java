package dev.ratelimit.console.report;

/** How often one client address was intercepted. */
public record IpCount(String ip, long count) {
}
