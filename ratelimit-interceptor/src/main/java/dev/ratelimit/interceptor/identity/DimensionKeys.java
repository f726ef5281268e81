package dev.ratelimit.interceptor.identity;

import dev.ratelimit.interceptor.Dimension;
import dev.ratelimit.interceptor.rule.LimitDefinition;
import jakarta.servlet.http.HttpServletRequest;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/**
 * The identity part of a counter key for a limit's dimension. Parts that come from the request are
 * kept as they are when short and plain, and replaced by a hash otherwise, so no client can make keys
 * long or odd.
 */
public class DimensionKeys {

    /** METHOD and GLOBAL limits count everyone under one identity. */
    public static final String EVERYONE = "all";
    static final int MAX_PLAIN_LENGTH = 64;

    private final IdentityResolver users;
    private final TrustedProxyResolver clientIps;
    private final int ipv6PrefixLength;
    private final CustomKeyExpressions customKeys;

    public DimensionKeys(IdentityResolver users, TrustedProxyResolver clientIps, int ipv6PrefixLength,
                         CustomKeyExpressions customKeys) {
        if (ipv6PrefixLength < 1 || ipv6PrefixLength > 128) {
            throw new IllegalArgumentException("ratelimit.identity.ipv6-prefix-length must be 1 to 128, was "
                    + ipv6PrefixLength);
        }
        this.users = users;
        this.clientIps = clientIps;
        this.ipv6PrefixLength = ipv6PrefixLength;
        this.customKeys = customKeys;
    }

    /** The identity to count the request under, or {@code null} when the limit does not apply to it. */
    public String identity(HttpServletRequest request, LimitDefinition limit) {
        return switch (limit.dimension()) {
            case USER -> keyPart(users.user(request));
            case IP -> ipIdentity(clientIps.clientIp(request));
            case METHOD, GLOBAL -> EVERYONE;
            case CUSTOM -> keyPart(customKeys.evaluate(limit.key(), request));
        };
    }

    /**
     * The identity to count under for {@code limit} when code names it ({@code RateLimitService}): the
     * name as a client-chosen value is kept ({@link #keyPart}), and everybody's for a {@code METHOD} or
     * {@code GLOBAL} limit, whatever is named.
     */
    public static String named(LimitDefinition limit, String identity) {
        return limit.dimension() == Dimension.METHOD || limit.dimension() == Dimension.GLOBAL ? EVERYONE
                : keyPart(identity);
    }

    public String user(HttpServletRequest request) {
        return users.user(request);
    }

    /** The user the server established, for the whitelist: see {@link IdentityResolver#verifiedUser}. */
    public String verifiedUser(HttpServletRequest request) {
        return users.verifiedUser(request);
    }

    public String clientIp(HttpServletRequest request) {
        return clientIps.clientIp(request);
    }

    /** IPv6 clients get a whole prefix (a /64 by default), since one host owns billions of addresses. */
    String ipIdentity(String ip) {
        InetAddress address = IpLiteral.parse(ip);
        if (!(address instanceof Inet6Address) || ipv6PrefixLength == 128) {
            return keyPart(ip);
        }
        try {
            return InetAddress.getByAddress(CidrBlock.masked(address.getAddress(), ipv6PrefixLength)).getHostAddress()
                    + "/" + ipv6PrefixLength;
        } catch (java.net.UnknownHostException e) {
            throw new IllegalStateException("16 bytes are always an IPv6 address", e);
        }
    }

    /**
     * Printable ASCII but the braces, which Redis Cluster reads as a hash tag: a client that could put
     * braces in its identity would choose the slot (and the node) of its own counters.
     */
    private static boolean plain(int c) {
        return c > ' ' && c < 0x7f && c != '{' && c != '}';
    }

    /**
     * The identity part of a counter key for a value a client may choose: the value itself when short and
     * plain; otherwise {@code ~} and a hash of it. Blank (or {@code null}) is no identity: {@code null}.
     */
    public static String keyPart(String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        if (value.length() <= MAX_PLAIN_LENGTH && value.chars().allMatch(DimensionKeys::plain)) {
            return value;
        }
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8));
            return "~" + Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every Java runtime", e);
        }
    }
}
