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

    @Override
    public String toString() {
        return text;
    }
}
