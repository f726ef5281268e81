package dev.ratelimit.interceptor.identity;

import com.fasterxml.jackson.annotation.JsonValue;
import dev.ratelimit.interceptor.Dimension;
import dev.ratelimit.interceptor.InvalidValueException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * Clients refused outright, before any limit counts them: addresses and CIDR blocks (IPv4, IPv6), user
 * codes and CUSTOM keys, each until a time or for good. Immutable, one per config snapshot. A lookup
 * costs one hash probe per distinct prefix length of the blocks (an exact address is a block of its
 * whole length), never a scan; the clock is read only when an entry matched, since an entry may end
 * between two reads of the hash.
 */
public final class DenyList {

    /**
     * The most entries in force: each one is a map entry on every instance (about 200 bytes with its note),
     * so 10,000 cost about 2 MB per instance. Beyond it the rest are ignored, with the reason; the editor
     * refuses to add more.
     */
    public static final int MAX_ENTRIES = 10_000;
    /** The longest note an entry carries: it is shown beside the entry, and kept in the audit trail. */
    public static final int MAX_NOTE_LENGTH = 200;

    public static final DenyList EMPTY = new DenyList(List.of());

    private static final String FOREVER = "forever";

    private final List<Entry> entries;
    /** By prefix length and network, IPv4 blocks as {@code length << 32 | network}. */
    private final Map<Long, Entry> ipv4;
    private final int[] ipv4Lengths;
    private final Map<Ipv6Block, Entry> ipv6;
    private final int[] ipv6Lengths;
    private final Map<String, Entry> users;
    /** Whether some user entry is a hashed identity ({@code ~...}), as the counters name an odd user code. */
    private final boolean hashedUsers;
    private final Map<String, Entry> keys;
    private final boolean empty;

    private DenyList(Collection<Entry> given) {
        Map<Long, Entry> v4 = new HashMap<>();
        Map<Ipv6Block, Entry> v6 = new HashMap<>();
        // Longest prefix first: of blocks that end together, the most specific is the one reported.
        TreeSet<Integer> v4Lengths = new TreeSet<>(Comparator.reverseOrder());
        TreeSet<Integer> v6Lengths = new TreeSet<>(Comparator.reverseOrder());
        Map<String, Entry> byUser = new HashMap<>();
        Map<String, Entry> byKey = new HashMap<>();
        for (Entry entry : given) {
            switch (entry.kind()) {
                case IP -> {
                    CidrBlock block = CidrBlock.parse(entry.target());
                    byte[] network = block.networkAddress();
                    if (network.length == 4) {
                        v4.merge(ipv4Key(block.prefixLength(), network), entry, Entry::later);
                        v4Lengths.add(block.prefixLength());
                    } else {
                        v6.merge(Ipv6Block.of(block.prefixLength(), network), entry, Entry::later);
                        v6Lengths.add(block.prefixLength());
                    }
                }
                case USER -> byUser.merge(entry.target(), entry, Entry::later);
                case KEY -> byKey.merge(entry.target(), entry, Entry::later);
            }
        }
        this.entries = List.copyOf(given);
        this.ipv4 = Map.copyOf(v4);
        this.ipv4Lengths = v4Lengths.stream().mapToInt(Integer::intValue).toArray();
        this.ipv6 = Map.copyOf(v6);
        this.ipv6Lengths = v6Lengths.stream().mapToInt(Integer::intValue).toArray();
        this.users = Map.copyOf(byUser);
        this.hashedUsers = byUser.keySet().stream().anyMatch(user -> user.startsWith("~"));
        this.keys = Map.copyOf(byKey);
        this.empty = given.isEmpty();
    }

    /** The entries given, in that order; the target of an address entry must parse as a {@link CidrBlock}. */
    public static DenyList of(Collection<Entry> entries) {
        return entries.isEmpty() ? EMPTY : new DenyList(entries);
    }

    /** Whether nothing is denied: the request path's one question in the common case. */
    public boolean isEmpty() {
        return empty;
    }

    public boolean hasAddresses() {
        return !ipv4.isEmpty() || !ipv6.isEmpty();
    }

    public boolean hasUsers() {
        return !users.isEmpty();
    }

    public boolean hasKeys() {
        return !keys.isEmpty();
    }

    /** Every entry, in the order given. */
    public List<Entry> entries() {
        return entries;
    }

    public int size() {
        return entries.size();
    }

    /**
     * The entry in force that denies a client address, or {@code null}: of several blocks holding it, the
     * one that ends last.
     *
     * @param ip the client address as the trusted-proxy rules resolve it, or {@code null}
     */
    public @Nullable Entry address(@Nullable String ip, Clock clock) {
        if (ip == null || !hasAddresses()) {
            return null;
        }
        InetAddress address = IpLiteral.parse(ip);
        if (address == null) {
            return null;
        }
        byte[] bytes = address.getAddress();
        Entry found = null;
        Instant now = null;
        if (address instanceof Inet4Address) {
            long bits = ipv4Bits(bytes);
            for (int length : ipv4Lengths) {
                long mask = length == 0 ? 0 : (0xffffffffL << (32 - length)) & 0xffffffffL;
                Entry entry = ipv4.get(((long) length << 32) | (bits & mask));
                if (entry != null) {
                    now = now == null ? clock.instant() : now;
                    found = Entry.laterInForce(found, entry, now);
                }
            }
        } else {
            for (int length : ipv6Lengths) {
                Entry entry = ipv6.get(Ipv6Block.of(length, bytes));
                if (entry != null) {
                    now = now == null ? clock.instant() : now;
                    found = Entry.laterInForce(found, entry, now);
                }
            }
        }
        return found;
    }

    /**
     * The entry in force that denies a user, or {@code null}: the user code itself, or, for a code the
     * counters hash (long or odd), the hashed identity they name it by.
     */
    public @Nullable Entry user(@Nullable String user, Clock clock) {
        if (user == null || users.isEmpty()) {
            return null;
        }
        Entry entry = users.get(user);
        if (entry == null && hashedUsers) {
            String counted = CounterIdentity.keyPart(user);
            entry = counted == null ? null : users.get(counted);
        }
        return inForce(entry, clock);
    }

    /** The entry in force that denies a CUSTOM identity as its limit counts it, or {@code null}. */
    public @Nullable Entry key(@Nullable String identity, Clock clock) {
        return identity == null || keys.isEmpty() ? null : inForce(keys.get(identity), clock);
    }

    private static @Nullable Entry inForce(@Nullable Entry entry, Clock clock) {
        return entry != null && entry.inForceAt(clock.instant()) ? entry : null;
    }

    private static long ipv4Key(int length, byte[] network) {
        return ((long) length << 32) | ipv4Bits(network);
    }

    private static long ipv4Bits(byte[] address) {
        return ((address[0] & 0xffL) << 24) | ((address[1] & 0xffL) << 16) | ((address[2] & 0xffL) << 8)
                | (address[3] & 0xffL);
    }

    /** What an entry denies. */
    public enum Kind {
        /** A client address or a CIDR block, IPv4 or IPv6. */
        IP(Dimension.IP),
        /** A user code. */
        USER(Dimension.USER),
        /** The identity of a CUSTOM limit of the endpoint. */
        KEY(Dimension.CUSTOM);

        private final String word = name().toLowerCase(Locale.ROOT);
        private final String rule = "deny." + word;
        private final Dimension dimension;

        Kind(Dimension dimension) {
            this.dimension = dimension;
        }

        /** {@code ip}, {@code user} or {@code key}: the kind as fields and forms name it. */
        @JsonValue
        public String word() {
            return word;
        }

        /** {@code deny.ip}, {@code deny.user} or {@code deny.key}: the rule a denial is metered and logged under. */
        public String rule() {
            return rule;
        }

        /** Who is counted, as the interception log names it. */
        public Dimension dimension() {
            return dimension;
        }

        /** The kind that names a client counted so ({@code USER}, {@code IP}, {@code CUSTOM}), or {@code null}. */
        public static @Nullable Kind of(Dimension dimension) {
            for (Kind kind : values()) {
                if (kind.dimension == dimension) {
                    return kind;
                }
            }
            return null;
        }

        /** The kind of this word, or {@code null}. */
        public static @Nullable Kind of(String word) {
            for (Kind kind : values()) {
                if (kind.word.equals(word)) {
                    return kind;
                }
            }
            return null;
        }

    }

    /**
     * One client denied.
     *
     * @param target the address, block, user code or key, as its field names it
     * @param until  when the denial ends; {@code null} for good
     * @param note   why, as the operator wrote it; empty for none
     */
    public record Entry(Kind kind, String target, @Nullable Instant until, String note) {

        public Entry {
            note = note == null ? "" : note;
        }

        /**
         * An entry from its field's value: {@code forever} or the instant it ends (ISO-8601, e.g.
         * {@code 2026-12-03T10:00:00Z}), optionally followed by a space and a note.
         *
         * @throws InvalidValueException for a value that is neither
         */
        public static Entry parse(Kind kind, String target, String value) {
            String text = value == null ? "" : value.strip();
            int space = text.indexOf(' ');
            String end = space < 0 ? text : text.substring(0, space);
            String note = space < 0 ? "" : text.substring(space + 1).strip();
            if (end.equals(FOREVER)) {
                return new Entry(kind, target, null, note);
            }
            try {
                return new Entry(kind, target, Instant.parse(end), note);
            } catch (DateTimeParseException e) {
                throw new InvalidValueException("ratelimit.config.deny");
            }
        }

        /** The field's value: {@code forever} or the end, then the note if any. */
        public String value() {
            String end = until == null ? FOREVER : until.toString();
            return note.isEmpty() ? end : end + " " + note;
        }

        public boolean inForceAt(Instant now) {
            return until == null || now.isBefore(until);
        }

        /** Milliseconds from {@code now} until the end; 0 for an entry without one. */
        public long millisLeft(Instant now) {
            return until == null ? 0 : Math.max(0, until.toEpochMilli() - now.toEpochMilli());
        }

        /** Of two entries for one target, the one that lasts longer. */
        static Entry later(Entry one, Entry other) {
            if (one.until == null) {
                return one;
            }
            return other.until == null || other.until.isAfter(one.until) ? other : one;
        }

        /** {@code candidate} if it is in force and lasts longer than {@code found}, else {@code found}. */
        static @Nullable Entry laterInForce(@Nullable Entry found, Entry candidate, Instant now) {
            if (!candidate.inForceAt(now)) {
                return found;
            }
            return found == null ? candidate : later(found, candidate);
        }
    }

    /** An IPv6 block as a map key: its prefix length and its network's 128 bits. */
    private record Ipv6Block(int length, long high, long low) {

        /** The block of {@code length} holding {@code address}. */
        static Ipv6Block of(int length, byte[] address) {
            long high = 0;
            long low = 0;
            for (int i = 0; i < 8; i++) {
                high = (high << 8) | (address[i] & 0xffL);
                low = (low << 8) | (address[i + 8] & 0xffL);
            }
            if (length <= 64) {
                high &= length == 0 ? 0 : -1L << (64 - length);
                low = 0;
            } else {
                low &= -1L << (128 - length);
            }
            return new Ipv6Block(length, high, low);
        }
    }
}
