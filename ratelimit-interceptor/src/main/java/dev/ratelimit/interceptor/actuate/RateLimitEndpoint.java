package dev.ratelimit.interceptor.actuate;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.ratelimit.interceptor.blocked.BlockedClient;
import dev.ratelimit.interceptor.blocked.BlockedClients;
import dev.ratelimit.interceptor.config.EvictionPolicy;
import dev.ratelimit.interceptor.config.EvictionPolicy.Reading;
import dev.ratelimit.interceptor.config.RuleCatalog;
import dev.ratelimit.interceptor.config.RuleDescription;
import dev.ratelimit.interceptor.config.RuleSnapshot;
import dev.ratelimit.interceptor.config.RuleSnapshotHolder;
import dev.ratelimit.interceptor.config.RuleSnapshotHolder.Restore;
import dev.ratelimit.interceptor.config.RulesInForce;
import dev.ratelimit.interceptor.identity.CidrBlock;
import dev.ratelimit.interceptor.identity.DenyList;
import dev.ratelimit.interceptor.identity.Whitelist;
import dev.ratelimit.interceptor.internal.lease.HeldLeases;
import dev.ratelimit.interceptor.log.DroppedInterceptions;
import dev.ratelimit.interceptor.log.InterceptionLog;
import dev.ratelimit.interceptor.metrics.OutcomeCounts;
import dev.ratelimit.interceptor.store.RateLimitStore;
import dev.ratelimit.interceptor.store.StoreDescription;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.Sanitizer;
import org.springframework.boot.actuate.endpoint.SanitizingFunction;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;

/**
 * Actuator endpoint {@code ratelimit}: the config snapshot in force (version, age, switches, whitelist, deny list),
 * every rule in force as {@link RulesInForce} describes it, the store as it describes itself (its circuit and
 * near cache for Redis), the outcomes counted since the start, and the leases this instance holds. Read
 * only; expose it with {@code management.endpoints.web.exposure.include}. The clients it names (whitelists,
 * deny-list entries and their notes, exceptions, blocked clients) show as {@code management.endpoint.ratelimit.show-values}
 * says ({@link ReportValues}), never by default.
 */
@Endpoint(id = "ratelimit")
public class RateLimitEndpoint {

    static final int MAX_BLOCKED_SHOWN = 100;
    static final int MAX_DENIED_SHOWN = 100;

    private final String module;
    private final RuleCatalog catalog;
    private final RuleSnapshotHolder snapshots;
    private final RateLimitStore store;
    private final OutcomeCounts counts;
    private final InterceptionLog log;
    private final Whitelist whitelist;
    private final @Nullable BlockedClients blocked;
    private final @Nullable EvictionPolicy eviction;
    private final HeldLeases leases;
    private final Clock clock;
    private final EndpointShowValues show;
    private final Sanitizer sanitizer;

    /**
     * @param whitelist the whitelist of the properties; the config hash's is in the snapshot
     * @param blocked   {@code null} without Redis
     * @param eviction  {@code null} without a config hash in Redis
     * @param leases    the leases of this instance's requests running under concurrency limits
     * @param show      who sees the clients it names
     * @param sanitizing the app's {@link SanitizingFunction} beans, applied to those shown
     */
    public RateLimitEndpoint(String module, RuleCatalog catalog, RuleSnapshotHolder snapshots, RateLimitStore store,
                             OutcomeCounts counts, InterceptionLog log, Whitelist whitelist,
                             @Nullable BlockedClients blocked, @Nullable EvictionPolicy eviction, HeldLeases leases,
                             Clock clock, EndpointShowValues show, Iterable<SanitizingFunction> sanitizing) {
        this.module = module;
        this.catalog = catalog;
        this.snapshots = snapshots;
        this.store = store;
        this.counts = counts;
        this.log = log;
        this.whitelist = whitelist;
        this.blocked = blocked;
        this.eviction = eviction;
        this.leases = leases;
        this.clock = clock;
        this.show = show;
        this.sanitizer = new Sanitizer(sanitizing);
    }

    /** Where there is no user to authorize (JMX): {@code when-authorized} shows the clients, as Spring Boot does. */
    @ReadOperation
    public Report report() {
        return report(show.shown());
    }

    /** Over the web ({@link RateLimitEndpointWebExtension}): as the request's user is authorized. */
    Report report(SecurityContext user) {
        return report(show.shown(user));
    }

    /** The report, the clients it names and operators' notes shown or {@code ******}. */
    public Report report(boolean showValues) {
        ReportValues values = new ReportValues(sanitizer, showValues);
        Long dropped = log instanceof DroppedInterceptions drops ? drops.droppedInterceptions() : null;
        RulesInForce rules = catalog.current();
        return new Report(module, snapshot(rules.snapshot(), values), denyList(rules.snapshot().denyList(), values),
                rules.rules().stream().map(values::rule).toList(), store.describe(), counts.snapshot(), dropped,
                blockedNow(values), eviction == null ? null : eviction.current(), leases.describe());
    }

    private static DenyListReport denyList(DenyList denyList, ReportValues values) {
        return new DenyListReport(denyList.size(), DenyList.MAX_ENTRIES,
                denyList.entries().stream().limit(MAX_DENIED_SHOWN).map(values::entry).toList());
    }

    /** Read only: Unblock is the console's, or {@code BlockedClients.unblock}. */
    private @Nullable BlockedReport blockedNow(ReportValues values) {
        if (blocked == null) {
            return null;
        }
        try {
            return new BlockedReport(blocked.now(List.of(module), MAX_BLOCKED_SHOWN).stream().map(values::client).toList(),
                    null);
        } catch (RuntimeException e) {
            return new BlockedReport(List.of(), e.toString());
        }
    }

    private SnapshotReport snapshot(RuleSnapshot snapshot, ReportValues values) {
        Instant readAt = snapshots.lastRead();
        Long age = readAt == null ? null : Duration.between(readAt, clock.instant()).toSeconds();
        return new SnapshotReport(snapshot.version(), readAt == null ? null : snapshot.loadedAt(), readAt, age,
                snapshots.lastRestore(), snapshot.globalCheck(), snapshot.globalMode().value(), snapshot.logCheck(),
                values.values(ReportValues.WHITELIST_IPS, ips(whitelist, snapshot.whitelist())),
                values.values(ReportValues.WHITELIST_USERS, users(whitelist, snapshot.whitelist())),
                values.ignored(snapshot.ignored()));
    }

    private static List<String> ips(Whitelist configured, Whitelist fromHash) {
        TreeSet<String> ips = new TreeSet<>();
        configured.ips().stream().map(CidrBlock::toString).forEach(ips::add);
        fromHash.ips().stream().map(CidrBlock::toString).forEach(ips::add);
        return List.copyOf(ips);
    }

    private static List<String> users(Whitelist configured, Whitelist fromHash) {
        TreeSet<String> users = new TreeSet<>(configured.users());
        users.addAll(fromHash.users());
        return List.copyOf(users);
    }

    /**
     * What the endpoint shows.
     *
     * @param counts      outcomes since the start, over all rules
     * @param logDropped  interceptions the log writer gave up, when it counts them
     * @param blocked     the module's clients blocked now, across its instances; {@code null} without Redis
     * @param maxmemoryPolicy Redis' eviction policy, and whether it may evict the config hash; {@code null} without Redis
     * @param leases      the leases this instance holds for its requests running under concurrency limits, by rule
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Report(String module, SnapshotReport snapshot, DenyListReport denyList, List<RuleDescription> rules,
                         StoreDescription store, Map<String, Long> counts, @Nullable Long logDropped,
                         @Nullable BlockedReport blocked, @Nullable Reading maxmemoryPolicy, Map<String, Object> leases) {
    }

    /**
     * The deny list in force when the hash was last read.
     *
     * @param size    its entries in force
     * @param bound   the most it holds ({@link DenyList#MAX_ENTRIES})
     * @param entries the first {@value #MAX_DENIED_SHOWN} by field name: the console lists them all
     */
    public record DenyListReport(int size, int bound, List<DenyList.Entry> entries) {
    }

    /**
     * @param clients blocked longest first, at most {@value #MAX_BLOCKED_SHOWN}
     * @param error   why they could not be read (Redis away), or {@code null}
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record BlockedReport(List<BlockedClient> clients, @Nullable String error) {
    }

    /**
     * The config snapshot in force.
     *
     * @param version    the hash's {@code config.version}: every write through the limiter advances it
     * @param loadedAt   when this content was first read
     * @param readAt     when the hash was last read: long ago while Redis does not answer, as the old snapshot
     *                   stays in force
     * @param ageSeconds seconds since {@code readAt}
     * @param restored   the last time this instance put the hash back after Redis lost it; {@code null} if never
     * @param ignored    fields of the hash the limiter does not apply, with the reason
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record SnapshotReport(long version, @Nullable Instant loadedAt, @Nullable Instant readAt,
                                 @Nullable Long ageSeconds, @Nullable Restore restored, boolean globalCheck,
                                 String globalMode, boolean logCheck, List<String> whitelistIps,
                                 List<String> whitelistUsers, Map<String, String> ignored) {
    }
}
