package dev.ratelimit.interceptor.web;

import dev.ratelimit.interceptor.identity.DenyList;

/**
 * Why a request is refused outright: the deny-list entry of its client.
 *
 * @param entry             the entry (its note is the operator's, not meant for the client)
 * @param retryAfterSeconds whole seconds, rounded up, until the entry ends; 0 for an entry without an end
 * @param message           the refusal text in the request's locale
 */
public record Denial(DenyList.Entry entry, long retryAfterSeconds, String message) {

    /** Whether the denial ends: then {@code Retry-After} says when. */
    public boolean ends() {
        return entry.until() != null;
    }
}
