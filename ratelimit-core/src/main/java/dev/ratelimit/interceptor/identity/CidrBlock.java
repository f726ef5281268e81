package dev.ratelimit.interceptor.identity;

import dev.ratelimit.interceptor.InvalidValueException;
import java.net.InetAddress;

/** An IPv4 or IPv6 address block such as {@code 10.0.0.0/8} or {@code fd00::/8}; a bare address is a block of one. */
public final class CidrBlock {

    private final byte[] network;
    private final int prefixLength;
    private final String text;

    private CidrBlock(byte[] network, int prefixLength, String text) {
        this.network = network;
        this.prefixLength = prefixLength;
        this.text = text;
    }

    /** @throws IllegalArgumentException naming the bad value */
    public static CidrBlock parse(String cidr) {
        String value = cidr == null ? "" : cidr.strip();
        int slash = value.indexOf('/');
        InetAddress address = IpLiteral.parse(slash < 0 ? value : value.substring(0, slash));
        if (address == null) {
            throw new InvalidValueException("ratelimit.config.address", cidr);
        }
        int maxLength = address.getAddress().length * 8;
        int prefix;
        try {
            prefix = slash < 0 ? maxLength : Integer.parseInt(value.substring(slash + 1));
        } catch (NumberFormatException e) {
            prefix = -1;
        }
        if (prefix < 0 || prefix > maxLength) {
            throw new InvalidValueException("ratelimit.config.address", cidr);
        }
        return new CidrBlock(address.getAddress(), prefix, value);
    }

    /**
     * The block as the deny list writes it: the network address (host bits cleared) in its shortest text
     * form (RFC 5952 for IPv6), followed by {@code /<prefix>} unless the block is one address.
     */
    public String canonical() {
        byte[] masked = masked(network, prefixLength);
        String address = masked.length == 4 ? ipv4Text(masked) : ipv6Text(masked);
        return prefixLength == masked.length * 8 ? address : address + "/" + prefixLength;
    }

    int prefixLength() {
        return prefixLength;
    }

    /** The network address, host bits cleared. */
    byte[] networkAddress() {
        return masked(network, prefixLength);
    }

    /** A copy of {@code address} with every bit after the first {@code prefixLength} cleared. */
    static byte[] masked(byte[] address, int prefixLength) {
        byte[] masked = address.clone();
        for (int bit = prefixLength; bit < masked.length * 8; bit++) {
            masked[bit / 8] &= (byte) ~(0x80 >>> (bit % 8));
        }
        return masked;
    }

    public boolean contains(InetAddress address) {
        byte[] candidate = address.getAddress();
        if (candidate.length != network.length) {
            return false;
        }
        int fullBytes = prefixLength / 8;
        for (int i = 0; i < fullBytes; i++) {
            if (candidate[i] != network[i]) {
                return false;
            }
        }
        int remainingBits = prefixLength % 8;
        if (remainingBits == 0) {
            return true;
        }
        int mask = 0xff << (8 - remainingBits);
        return (candidate[fullBytes] & mask) == (network[fullBytes] & mask);
    }

    private static String ipv4Text(byte[] address) {
        return (address[0] & 0xff) + "." + (address[1] & 0xff) + "." + (address[2] & 0xff) + "." + (address[3] & 0xff);
    }

    /** RFC 5952: lower-case groups without leading zeros, the first longest run of two or more zero groups as {@code ::}. */
    private static String ipv6Text(byte[] address) {
        int[] groups = new int[8];
        for (int i = 0; i < 8; i++) {
            groups[i] = ((address[2 * i] & 0xff) << 8) | (address[2 * i + 1] & 0xff);
        }
        int bestStart = -1;
        int bestLength = 1;
        for (int i = 0; i < 8; ) {
            int end = i;
            while (end < 8 && groups[end] == 0) {
                end++;
            }
            if (end - i > bestLength) {
                bestStart = i;
                bestLength = end - i;
            }
            i = end == i ? i + 1 : end;
        }
        StringBuilder text = new StringBuilder(39);
        for (int i = 0; i < 8; i++) {
            if (i == bestStart) {
                text.append("::");
                i += bestLength - 1;
            } else {
                if (!text.isEmpty() && text.charAt(text.length() - 1) != ':') {
                    text.append(':');
                }
                text.append(Integer.toHexString(groups[i]));
            }
        }
        return text.toString();
    }

    @Override
    public String toString() {
        return text;
    }
}
