package dev.ratelimit.interceptor.identity;

import jakarta.servlet.http.HttpServletRequest;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Enumeration;
import java.util.List;
import java.util.Locale;

/**
 * The client address of a request. The socket peer is the client unless it is one of the configured
 * trusted proxies; only then are {@code Forwarded} (preferred) or {@code X-Forwarded-For} read, right
 * to left, skipping trusted proxies and stopping at the first hop that is not one. A malformed hop
 * ends the walk at the last good address. With no trusted proxies configured no header is ever read,
 * so a client cannot choose its own identity.
 */
public class TrustedProxyResolver {

    static final int MAX_HOPS = 32;

    private final List<CidrBlock> trustedProxies;

    /** @throws IllegalArgumentException naming a value that is not an address or CIDR block */
    public TrustedProxyResolver(Collection<String> trustedProxies) {
        this.trustedProxies = trustedProxies.stream().map(CidrBlock::parse).toList();
    }

    /** The client's address in canonical text form. */
    public String clientIp(HttpServletRequest request) {
        String peer = request.getRemoteAddr();
        InetAddress peerAddress = IpLiteral.parse(peer);
        if (peerAddress == null) {
            return peer;
        }
        if (trustedProxies.isEmpty() || !isTrusted(peerAddress)) {
            return peerAddress.getHostAddress();
        }
        List<String> hops = forwardedFor(request);
        InetAddress client = peerAddress;
        for (int i = hops.size() - 1, walked = 0; i >= 0 && walked < MAX_HOPS; i--, walked++) {
            InetAddress hop = IpLiteral.parse(withoutPort(hops.get(i)));
            if (hop == null) {
                break;
            }
            client = hop;
            if (!isTrusted(hop)) {
                break;
            }
        }
        return client.getHostAddress();
    }

    private boolean isTrusted(InetAddress address) {
        for (CidrBlock block : trustedProxies) {
            if (block.contains(address)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether the client reached the first trusted proxy over HTTPS: the request itself is secure, or it
     * comes from a trusted proxy that says so ({@code Forwarded: proto=https}, else
     * {@code X-Forwarded-Proto: https}). From any other peer the headers are not believed.
     */
    public boolean isSecure(HttpServletRequest request) {
        if (request.isSecure()) {
            return true;
        }
        InetAddress peer = IpLiteral.parse(request.getRemoteAddr());
        if (peer == null || trustedProxies.isEmpty() || !isTrusted(peer)) {
            return false;
        }
        String forwarded = request.getHeader("Forwarded");
        if (forwarded != null) {
            String first = forwarded.split(",")[0];
            for (String pair : first.split(";")) {
                int eq = pair.indexOf('=');
                if (eq > 0 && pair.substring(0, eq).strip().equalsIgnoreCase("proto")) {
                    return pair.substring(eq + 1).strip().replace("\"", "").equalsIgnoreCase("https");
                }
            }
        }
        String proto = request.getHeader("X-Forwarded-Proto");
        return proto != null && proto.split(",")[0].strip().equalsIgnoreCase("https");
    }

    /** The {@code for} addresses of the forwarding headers, leftmost (farthest) first. */
    private static List<String> forwardedFor(HttpServletRequest request) {
        List<String> hops = new ArrayList<>();
        Enumeration<String> forwarded = request.getHeaders("Forwarded");
        while (forwarded != null && forwarded.hasMoreElements()) {
            for (String element : forwarded.nextElement().split(",")) {
                for (String pair : element.split(";")) {
                    int eq = pair.indexOf('=');
                    if (eq > 0 && pair.substring(0, eq).strip().toLowerCase(Locale.ROOT).equals("for")) {
                        hops.add(pair.substring(eq + 1).strip());
                    }
                }
            }
        }
        if (!hops.isEmpty()) {
            return hops;
        }
        Enumeration<String> xff = request.getHeaders("X-Forwarded-For");
        while (xff != null && xff.hasMoreElements()) {
            for (String hop : xff.nextElement().split(",")) {
                hops.add(hop.strip());
            }
        }
        return hops;
    }

    /** {@code "192.0.2.1:8080"}, {@code "[2001:db8::1]:8080"} and quoted forms to the bare address. */
    private static String withoutPort(String hop) {
        String value = hop;
        if (value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")) {
            value = value.substring(1, value.length() - 1);
        }
        if (value.startsWith("[")) {
            int close = value.indexOf(']');
            return close > 0 ? value.substring(1, close) : value;
        }
        int colon = value.indexOf(':');
        return colon > 0 && colon == value.lastIndexOf(':') ? value.substring(0, colon) : value;
    }
}
