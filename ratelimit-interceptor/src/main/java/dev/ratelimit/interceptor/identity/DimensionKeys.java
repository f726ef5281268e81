package dev.ratelimit.interceptor.identity;

import dev.ratelimit.interceptor.rule.LimitDefinition;
import jakarta.servlet.http.HttpServletRequest;
import java.net.Inet6Address;
import java.net.InetAddress;
import org.jspecify.annotations.Nullable;

/**
 * The identity part of a counter key for a limit's dimension, read from a servlet request; each part made
 * a {@link CounterIdentity#keyPart key part}.
 */
public class DimensionKeys {

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
    public @Nullable String identity(HttpServletRequest request, LimitDefinition limit) {
        return switch (limit.dimension()) {
            case USER -> CounterIdentity.keyPart(users.user(request));
            case IP -> ipIdentity(clientIps.clientIp(request));
            case METHOD, GLOBAL -> CounterIdentity.EVERYONE;
            case CUSTOM -> CounterIdentity.keyPart(customKeys.evaluate(limit.key(), request));
        };
    }

    public @Nullable String user(HttpServletRequest request) {
        return users.user(request);
    }

    /** The user the server established, for the whitelist: see {@link IdentityResolver#verifiedUser}. */
    public @Nullable String verifiedUser(HttpServletRequest request) {
        return users.verifiedUser(request);
    }

    public String clientIp(HttpServletRequest request) {
        return clientIps.clientIp(request);
    }

    /** IPv6 clients get a whole prefix (a /64 by default), since one host owns billions of addresses. */
    @Nullable String ipIdentity(String ip) {
        InetAddress address = IpLiteral.parse(ip);
        if (!(address instanceof Inet6Address) || ipv6PrefixLength == 128) {
            return CounterIdentity.keyPart(ip);
        }
        try {
            return InetAddress.getByAddress(CidrBlock.masked(address.getAddress(), ipv6PrefixLength)).getHostAddress()
                    + "/" + ipv6PrefixLength;
        } catch (java.net.UnknownHostException e) {
            throw new IllegalStateException("16 bytes are always an IPv6 address", e);
        }
    }
}
