package dev.ratelimit.console.dynamic;

/**
 * What a candidate URL pattern would do to one indexed endpoint it matches.
 *
 * @param effect  {@code wins}, {@code shadowed} (a more specific pattern applies), {@code annotated} or {@code hasDyn}
 * @param winner  the pattern that applies to the endpoint, when {@code shadowed}
 */
public record PreviewRow(IndexedEndpoint endpoint, String effect, String winner) {
}
