package dev.ratelimit.interceptor.identity;

import dev.ratelimit.interceptor.InvalidValueException;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * Clients that no rule limits: addresses and CIDR blocks, matched against the client address as the
 * trusted-proxy rules resolve it, and user codes, matched against the user the server established
 * ({@code IdentityResolver.verifiedUser}), never against anything a client can simply send.
 */
public record Whitelist(List<CidrBlock> ips, Set<String> users) {

    public static final Whitelist EMPTY = new Whitelist(List.of(), Set.of());

    public Whitelist {
        ips = List.copyOf(ips);
        users = Set.copyOf(users);
    }

    /**
     * The entries given, each stripped; blank ones are skipped.
     *
     * @param badEntry given each address entry that does not parse, which is then left out
     */
    public static Whitelist parse(Collection<String> ips, Collection<String> users, Consumer<String> badEntry) {
        List<CidrBlock> blocks = new ArrayList<>();
        for (String ip : ips) {
            if (ip != null && !ip.isBlank()) {
                try {
                    blocks.add(CidrBlock.parse(ip));
                } catch (IllegalArgumentException e) {
                    badEntry.accept(ip);
                }
            }
        }
        Set<String> codes = new LinkedHashSet<>();
        for (String user : users) {
            if (user != null && !user.isBlank()) {
                codes.add(user.strip());
            }
        }
        return new Whitelist(blocks, codes);
    }

    /** The entries given; an address that does not parse fails with the value named. */
    public static Whitelist of(Collection<String> ips, Collection<String> users) {
        return parse(ips, users, entry -> {
            throw new InvalidValueException("ratelimit.config.address", entry);
        });
    }

    /** The entries of a comma-separated list, stripped, blank ones left out. */
    public static List<String> split(@Nullable String commaSeparated) {
        List<String> entries = new ArrayList<>();
        for (String entry : (commaSeparated == null ? "" : commaSeparated).split(",")) {
            if (!entry.isBlank()) {
                entries.add(entry.strip());
            }
        }
        return entries;
    }

    public boolean isEmpty() {
        return ips.isEmpty() && users.isEmpty();
    }

    /** @param ip a client address in text form, or {@code null} */
    public boolean containsIp(@Nullable String ip) {
        if (ips.isEmpty() || ip == null) {
            return false;
        }
        InetAddress address = IpLiteral.parse(ip);
        if (address == null) {
            return false;
        }
        for (CidrBlock block : ips) {
            if (block.contains(address)) {
                return true;
            }
        }
        return false;
    }

    /** @param user a user code the server established, or {@code null} */
    public boolean containsUser(@Nullable String user) {
        return user != null && users.contains(user);
    }
}
