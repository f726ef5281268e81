package dev.ratelimit.interceptor.identity;

import java.net.InetAddress;
import java.net.UnknownHostException;
import org.jspecify.annotations.Nullable;

/**
 * Parses IP address literals without ever asking DNS: {@code InetAddress.getByName} resolves host
 * names, and a header value is client input, so only strings made of address characters reach it.
 */
final class IpLiteral {

    private static final int MAX_LENGTH = 45; // the longest IPv6 text form with an embedded IPv4 part

    private IpLiteral() {
    }

    /** The address, or {@code null} when the text is not an IPv4 or IPv6 literal. */
    public static @Nullable InetAddress parse(@Nullable String text) {
        if (text == null) {
            return null;
        }
        String value = text.strip();
        if (value.startsWith("[") && value.endsWith("]")) {
            value = value.substring(1, value.length() - 1);
        }
        if (value.isEmpty() || value.length() > MAX_LENGTH || !(isIpv4(value) || isIpv6(value))) {
            return null;
        }
        try {
            return InetAddress.getByName(value);
        } catch (UnknownHostException e) {
            return null;
        }
    }

    private static boolean isIpv4(String value) {
        String[] parts = value.split("\\.", -1);
        if (parts.length != 4) {
            return false;
        }
        for (String part : parts) {
            if (part.isEmpty() || part.length() > 3 || !part.chars().allMatch(c -> c >= '0' && c <= '9')
                    || Integer.parseInt(part) > 255) {
                return false;
            }
        }
        return true;
    }

    private static boolean isIpv6(String value) {
        return value.indexOf(':') >= 0 && value.chars().allMatch(c -> Character.digit(c, 16) >= 0 || c == ':' || c == '.');
    }
}
