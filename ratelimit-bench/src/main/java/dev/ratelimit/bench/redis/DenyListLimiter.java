package dev.ratelimit.bench.redis;

import dev.ratelimit.bench.Limiter;
import dev.ratelimit.interceptor.config.SysConfigParser;
import dev.ratelimit.interceptor.identity.DenyList;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/**
 * A client on the deny list, refused from the config snapshot every instance holds, with no Redis call:
 * what the deny list costs a decision. The list is full (its bound, 10,000 entries) of single addresses and
 * blocks of four prefix lengths, IPv4 and IPv6, so each lookup probes every prefix length of its family;
 * counter {@code i} is a client inside entry {@code i}. Refused, so it answers {@code false}.
 */
final class DenyListLimiter implements Limiter {

    private final DenyList denyList;
    private final String[] clients;
    private final Clock clock = Clock.systemUTC();

    DenyListLimiter(int keys) {
        Map<String, String> hash = new HashMap<>();
        for (int i = 0; i < DenyList.MAX_ENTRIES; i++) {
            hash.put("deny.ip." + address(i, false), "forever");
        }
        denyList = SysConfigParser.parse(hash, Instant.now(), warning -> {
            throw new IllegalStateException(warning);
        }).denyList();
        if (denyList.size() != DenyList.MAX_ENTRIES) {
            throw new IllegalStateException("the deny list holds " + denyList.size() + " entries");
        }
        clients = new String[keys];
        for (int i = 0; i < keys; i++) {
            clients[i] = address(i % DenyList.MAX_ENTRIES, true);
        }
    }

    /**
     * Entry {@code i} (an IPv4 address, an IPv4 /24, an IPv6 /48 or an IPv6 address, in turn) or, with
     * {@code client}, an address inside it.
     */
    private static String address(int i, boolean client) {
        int n = i / 4;
        return switch (i % 4) {
            case 0 -> "198.18." + (n / 256) + "." + (n % 256);
            case 1 -> "100." + (64 + n / 256) + "." + (n % 256) + (client ? ".7" : ".0/24");
            case 2 -> "2001:db8:" + Integer.toHexString(n + 1) + (client ? ":1::7" : "::/48");
            default -> "fd00::" + Integer.toHexString(n + 1);
        };
    }

    @Override
    public boolean tryAcquire(int key) {
        return denyList.address(clients[key], clock) == null;
    }

    @Override
    public Object heldState() {
        return denyList;
    }
}
