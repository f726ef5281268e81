package dev.ratelimit.interceptor.identity;

/**
 * The request cannot be read as a limit needs it: typically a query string that is not valid in its
 * encoding, which the servlet container refuses to decode. The interceptor answers such a request with
 * 400 instead of letting it pass uncounted. An app's {@code IdentityResolver} may throw it too.
 */
public class UnreadableRequestException extends RuntimeException {

    public UnreadableRequestException(String message, Throwable cause) {
        super(message, cause);
    }
}
