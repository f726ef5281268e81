package dev.ratelimit.interceptor.identity;

import dev.ratelimit.interceptor.Dimension;
import dev.ratelimit.interceptor.rule.LimitDefinition;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import org.jspecify.annotations.Nullable;

/**
 * The identity part of a counter key, whoever names the identity (a request, code, a config field): kept as
 * it is when short and plain, replaced by a hash otherwise, so no client can make keys long or odd.
 */
public final class CounterIdentity {

    /** METHOD and GLOBAL limits count everyone under one identity. */
    public static final String EVERYONE = "all";
    static final int MAX_PLAIN_LENGTH = 64;

    private CounterIdentity() {
    }

    /**
     * The identity to count under for {@code limit} when code names it ({@code RateLimitService}): the
     * name as a client-chosen value is kept ({@link #keyPart}), and everybody's for a {@code METHOD} or
     * {@code GLOBAL} limit, whatever is named.
     */
    public static @Nullable String named(LimitDefinition limit, String identity) {
        return limit.dimension() == Dimension.METHOD || limit.dimension() == Dimension.GLOBAL ? EVERYONE
                : keyPart(identity);
    }

    /**
     * The identity part of a counter key for a value a client may choose: the value itself when short and
     * plain; otherwise {@code ~} and a hash of it. Blank (or {@code null}) is no identity: {@code null}.
     */
    public static @Nullable String keyPart(@Nullable String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        if (value.length() <= MAX_PLAIN_LENGTH && value.chars().allMatch(CounterIdentity::plain)) {
            return value;
        }
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8));
            return "~" + Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every Java runtime", e);
        }
    }

    /**
     * Printable ASCII but the braces, which Redis Cluster reads as a hash tag: a client that could put
     * braces in its identity would choose the slot (and the node) of its own counters.
     */
    private static boolean plain(int c) {
        return c > ' ' && c < 0x7f && c != '{' && c != '}';
    }
}
