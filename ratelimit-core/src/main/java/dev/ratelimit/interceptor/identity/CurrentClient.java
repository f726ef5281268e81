package dev.ratelimit.interceptor.identity;

import org.jspecify.annotations.Nullable;

/**
 * Finds the client of the web request this thread is handling: how a call in the app learns whom it is
 * made for, without the call path knowing of any web API.
 */
@FunctionalInterface
public interface CurrentClient {

    /** An app without a web layer: no call is ever made in a request. */
    CurrentClient NONE = () -> null;

    /** The client of the request this thread handles, or {@code null} outside one. */
    @Nullable RequestClient find();
}
