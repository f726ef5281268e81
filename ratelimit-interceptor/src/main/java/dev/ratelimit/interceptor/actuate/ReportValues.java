package dev.ratelimit.interceptor.actuate;

import dev.ratelimit.interceptor.blocked.BlockedClient;
import dev.ratelimit.interceptor.config.RuleDescription;
import dev.ratelimit.interceptor.config.SysConfigFields;
import dev.ratelimit.interceptor.identity.DenyList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.springframework.boot.actuate.endpoint.SanitizableData;
import org.springframework.boot.actuate.endpoint.Sanitizer;

/**
 * What the {@code ratelimit} endpoint shows of the clients it names (user codes, addresses, keys, whole
 * or in a config field) and of operators' notes: each value goes through Spring Boot's {@link Sanitizer},
 * so it is {@code ******} unless shown, and when shown passes the app's {@code SanitizingFunction} beans,
 * keyed by where it sits in the report ({@code snapshot.whitelistUsers}, {@code denyList.entries.note}...).
 * Values that name nobody (rules, counts, the store) are shown as they are.
 */
final class ReportValues {

    static final String WHITELIST_IPS = "snapshot.whitelistIps";
    static final String WHITELIST_USERS = "snapshot.whitelistUsers";
    static final String IGNORED = "snapshot.ignored";
    static final String DENIED = "denyList.entries.target";
    static final String NOTE = "denyList.entries.note";
    static final String EXCEPTION = "rules.exceptions";
    static final String BLOCKED = "blocked.clients.identity";

    private final Sanitizer sanitizer;
    private final boolean shown;

    ReportValues(Sanitizer sanitizer, boolean shown) {
        this.sanitizer = sanitizer;
        this.shown = shown;
    }

    List<String> values(String key, List<String> values) {
        return values.stream().map(value -> value(key, value)).toList();
    }

    DenyList.Entry entry(DenyList.Entry entry) {
        return new DenyList.Entry(entry.kind(), value(DENIED, entry.target()), entry.until(),
                entry.note().isEmpty() ? "" : value(NOTE, entry.note()));
    }

    /** A blocked client with its identity, and the member that ends with it, sanitized. */
    BlockedClient client(BlockedClient client) {
        String identity = value(BLOCKED, client.identity());
        String member = client.member().substring(0, client.member().length() - client.identity().length()) + identity;
        return new BlockedClient(client.module(), member, client.rule(), client.dimension(), identity, client.until());
    }

    RuleDescription rule(RuleDescription rule) {
        return new RuleDescription(rule.id(), rule.source(), rule.kind(), rule.handler(), rule.declaredOnClass(),
                rule.pattern(), rule.httpMethods(), rule.maxWaitMillis(), rule.declared(), rule.inForce(), rule.enabled(),
                rule.mode(), rule.overridden(), rule.plans(), keys(rule.exceptions()), ignored(rule.ignored()), rule.knobs(),
                rule.declaredKnobs());
    }

    /**
     * Fields of the config hash the limiter ignores, with the reason: a field that names a client (a deny-list
     * entry, an exception) with that part sanitized, and its reason too, as is the reason of a whitelist,
     * which may quote its entries.
     */
    SortedMap<String, String> ignored(Map<String, String> ignored) {
        SortedMap<String, String> sanitized = new TreeMap<>();
        ignored.forEach((field, reason) -> {
            String named = withoutClient(field);
            boolean aboutClients = !named.equals(field) || field.equals(SysConfigFields.WHITELIST_IPS)
                    || field.equals(SysConfigFields.WHITELIST_USERS);
            sanitized.put(unique(sanitized, named), aboutClients ? value(IGNORED, reason) : reason);
        });
        return sanitized;
    }

    private String withoutClient(String field) {
        DenyList.Kind kind = SysConfigFields.denyKind(field);
        if (kind != null) {
            return SysConfigFields.deny(kind, value(IGNORED, SysConfigFields.denyTarget(kind, field)));
        }
        int exception = field.indexOf(SysConfigFields.EXCEPTION_INFIX);
        return exception < 0 ? field : field.substring(0, exception + SysConfigFields.EXCEPTION_INFIX.length())
                + value(IGNORED, field.substring(exception + SysConfigFields.EXCEPTION_INFIX.length()));
    }

    /** Exceptions by client: two clients both {@code ******} stay two entries ({@code ****** (2)}). */
    private <V> SortedMap<String, V> keys(SortedMap<String, V> byClient) {
        SortedMap<String, V> sanitized = new TreeMap<>();
        byClient.forEach((client, value) -> sanitized.put(unique(sanitized, value(EXCEPTION, client)), value));
        return sanitized;
    }

    private static String unique(Map<String, ?> taken, String key) {
        String unique = key;
        for (int n = 2; taken.containsKey(unique); n++) {
            unique = key + " (" + n + ")";
        }
        return unique;
    }

    // The Sanitizer answers null only for a null value (none here) or when an app's SanitizingFunction makes a
    // value null: the report then shows null, as it always has.
    @SuppressWarnings("NullAway")
    String value(String key, String value) {
        Object sanitized = sanitizer.sanitize(new SanitizableData(null, key, value), shown);
        return sanitized == null ? null : sanitized.toString();
    }
}
