package dev.ratelimit.interceptor.actuate;

import dev.ratelimit.interceptor.blocked.BlockedClient;
import dev.ratelimit.interceptor.blocked.BlockedClients;
import dev.ratelimit.interceptor.config.LimitSpec;
import dev.ratelimit.interceptor.config.RuleMode;
import dev.ratelimit.interceptor.config.RuleOverride;
import dev.ratelimit.interceptor.config.RuleSnapshot;
import dev.ratelimit.interceptor.config.RuleSnapshotHolder;
import dev.ratelimit.interceptor.config.UriRule;
import dev.ratelimit.interceptor.identity.CidrBlock;
import dev.ratelimit.interceptor.identity.Whitelist;
import dev.ratelimit.interceptor.log.DroppedInterceptions;
import dev.ratelimit.interceptor.log.InterceptionLog;
import dev.ratelimit.interceptor.metrics.OutcomeCounts;
import dev.ratelimit.interceptor.rule.EndpointCatalog;
import dev.ratelimit.interceptor.rule.LimitDefinition;
import dev.ratelimit.interceptor.store.Penalty;
import dev.ratelimit.interceptor.store.RateLimitStore;
import dev.ratelimit.interceptor.store.StoreDescription;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;

/**
 * Actuator endpoint {@code ratelimit}: the config snapshot in force (version, age, switches, whitelist),
 * every rule in force with its effective limit and mode, the store as it describes itself (its circuit and
 * near cache for Redis), and the outcomes
 * counted since the start. Read only; expose it with {@code management.endpoints.web.exposure.include}.
 */
@Endpoint(id = "ratelimit")
public class RateLimitEndpoint {

    static final int MAX_BLOCKED_SHOWN = 100;

    private final EndpointCatalog catalog;
    private final RuleSnapshotHolder snapshots;
    private final RateLimitStore store;
    private final OutcomeCounts counts;
    private final InterceptionLog log;
    private final Whitelist whitelist;
    private final BlockedClients blocked;
    private final Clock clock;

    /**
     * @param whitelist the whitelist of the properties; the config hash's is in the snapshot
     * @param blocked   {@code null} without Redis
     */
    public RateLimitEndpoint(EndpointCatalog catalog, RuleSnapshotHolder snapshots, RateLimitStore store,
                             OutcomeCounts counts, InterceptionLog log, Whitelist whitelist, BlockedClients blocked,
                             Clock clock) {
        this.catalog = catalog;
        this.snapshots = snapshots;
        this.store = store;
        this.counts = counts;
        this.log = log;
        this.whitelist = whitelist;
        this.blocked = blocked;
        this.clock = clock;
    }

    @ReadOperation
    public Report report() {
        RuleSnapshot snapshot = snapshots.current();
        Long dropped = log instanceof DroppedInterceptions drops ? drops.droppedInterceptions() : null;
        return new Report(catalog.naming().module(), snapshot(snapshot), rules(snapshot), store.describe(),
                counts.snapshot(), dropped, blockedNow());
    }

    /** Read only: Unblock is the console's, or {@code BlockedClients.unblock}. */
    private BlockedReport blockedNow() {
        if (blocked == null) {
            return null;
        }
        try {
            return new BlockedReport(blocked.now(List.of(catalog.naming().module()), MAX_BLOCKED_SHOWN), null);
        } catch (RuntimeException e) {
            return new BlockedReport(List.of(), e.toString());
        }
    }

    private SnapshotReport snapshot(RuleSnapshot snapshot) {
        Instant readAt = snapshots.lastRead();
        Long age = readAt == null ? null : Duration.between(readAt, clock.instant()).toSeconds();
        return new SnapshotReport(snapshot.version(), snapshot.version() == 0 ? null : snapshot.loadedAt(), readAt, age,
                snapshot.globalCheck(), snapshot.globalMode().value(), snapshot.logCheck(),
                ips(whitelist, snapshot.whitelist()), users(whitelist, snapshot.whitelist()), snapshot.ignored());
    }

    /** Annotated rules with the snapshot's overrides, then {@code dyn.*} and {@code dynuri.*} rules. */
    private List<RuleReport> rules(RuleSnapshot snapshot) {
        List<RuleReport> rules = new ArrayList<>();
        for (var endpoint : catalog.endpoints()) {
            for (LimitDefinition declared : endpoint.limits()) {
                RuleOverride override = snapshot.override(declared.id());
                LimitDefinition limit = override.applyTo(declared);
                rules.add(new RuleReport(limit.id(), "annotation", limit.count(), limit.windowSeconds(),
                        declared.count(), declared.windowSeconds(), limit.dimension().name(), limit.algorithm().name(),
                        limit.countsSome() ? limit.countWhen() : null, blockFor(limit.penalty()), limit.cost().describe(),
                        limit.quota().describe(), limit.plan().isEmpty() ? null : limit.plan(), override.enabled(),
                        mode(snapshot, limit.id())));
            }
        }
        for (Map.Entry<String, LimitSpec> dynamic : snapshot.dynamicRules().entrySet()) {
            rules.add(dynamicRule(snapshot, dynamic.getKey(), "dyn", dynamic.getValue()));
        }
        for (UriRule uriRule : snapshot.uriRules()) {
            rules.add(dynamicRule(snapshot, catalog.naming().module() + "." + uriRule.pattern(), "dynuri",
                    uriRule.limit()));
        }
        return rules;
    }

    private static RuleReport dynamicRule(RuleSnapshot snapshot, String id, String source, LimitSpec limit) {
        return new RuleReport(id, source, limit.count(), limit.intervalSeconds(), null, null, limit.dimension().name(),
                limit.algorithm().name(), null, null, null, null, null, snapshot.override(id).enabled(),
                mode(snapshot, id));
    }

    /** In seconds as the {@code <rule>.block} field takes it, {@code "900..14400"}; {@code null} for none. */
    private static String blockFor(Penalty penalty) {
        return penalty.applies() ? LimitSpec.formatBlocks(penalty) : null;
    }

    private static String mode(RuleSnapshot snapshot, String ruleId) {
        return (snapshot.shadow(ruleId) ? RuleMode.SHADOW : RuleMode.ENFORCE).value();
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
     */
    public record Report(String module, SnapshotReport snapshot, List<RuleReport> rules, StoreDescription store,
                         Map<String, Long> counts, Long logDropped, BlockedReport blocked) {
    }

    /**
     * @param clients blocked longest first, at most {@value #MAX_BLOCKED_SHOWN}
     * @param error   why they could not be read (Redis away), or {@code null}
     */
    public record BlockedReport(List<BlockedClient> clients, String error) {
    }

    /**
     * The config snapshot in force.
     *
     * @param version    grows by one with each change of the hash's content; 0 until the hash was first read
     * @param loadedAt   when this content was first read
     * @param readAt     when the hash was last read: long ago while Redis does not answer, as the old snapshot
     *                   stays in force
     * @param ageSeconds seconds since {@code readAt}
     * @param ignored    fields of the hash the limiter does not apply, with the reason
     */
    public record SnapshotReport(long version, Instant loadedAt, Instant readAt, Long ageSeconds, boolean globalCheck,
                                 String globalMode, boolean logCheck, List<String> whitelistIps,
                                 List<String> whitelistUsers, Map<String, String> ignored) {
    }

    /**
     * One rule in force.
     *
     * @param source          {@code annotation}, {@code dyn} or {@code dynuri}
     * @param count           in force
     * @param declaredCount   as the annotation declares it; {@code null} for dynamic rules
     * @param countWhen       the condition on the response for a request to stay counted; {@code null}: every request
     * @param blockFor        the penalty of a denied client in seconds, {@code 900} or {@code 900..14400}; {@code null}: none
     * @param cost            what one request weighs: a number or its cost expression; {@code null}: 1
     * @param quota           a calendar quota, {@code "DAY"} or {@code "MONTH Asia/Tokyo"}; {@code null}: none
     * @param plan            the expression resolving a client's plan; {@code null}: none
     */
    public record RuleReport(String id, String source, long count, long intervalSeconds, Long declaredCount,
                             Long declaredIntervalSeconds, String dimension, String algorithm, String countWhen,
                             String blockFor, String cost, String quota, String plan, boolean enabled, String mode) {
    }
}
