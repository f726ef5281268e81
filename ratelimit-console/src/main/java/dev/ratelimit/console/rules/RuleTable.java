package dev.ratelimit.console.rules;

import static dev.ratelimit.interceptor.config.SysConfigFields.CHECK_SUFFIX;
import static dev.ratelimit.interceptor.config.SysConfigFields.COUNT_SUFFIX;
import static dev.ratelimit.interceptor.config.SysConfigFields.DECLARED_PREFIX;
import static dev.ratelimit.interceptor.config.SysConfigFields.INTERVAL_SUFFIX;
import static dev.ratelimit.interceptor.config.SysConfigFields.MODE_SUFFIX;

import dev.ratelimit.apiindex.ApiIndexEntry;
import dev.ratelimit.apiindex.ApiIndexRepository;
import dev.ratelimit.console.audit.AuditEntry;
import dev.ratelimit.console.audit.AuditTrail;
import dev.ratelimit.console.logs.LogClock;
import dev.ratelimit.interceptor.config.LimitSpec;
import dev.ratelimit.interceptor.config.RuleOverride;
import dev.ratelimit.interceptor.config.RuleSnapshot;
import dev.ratelimit.interceptor.config.SysConfigParser;
import dev.ratelimit.interceptor.store.Penalty;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Joins the API index (what each module declares) with the config hash read by the limiter's own
 * parser (what is in force), so the page shows exactly what the limiter applies: the same switches,
 * modes and limits, and the same fields ignored for the same reasons.
 */
final class RuleTable {

    private static final List<String> KNOBS = List.of(CHECK_SUFFIX, COUNT_SUFFIX, INTERVAL_SUFFIX, MODE_SUFFIX);

    private RuleTable() {
    }

    /** @param typed what the operator typed into a refused rule form ({@code id}, {@code count}, ...), else empty */
    static List<ModuleRules> build(ApiIndexRepository index, Map<String, String> hash, AuditTrail audit,
                                   LogClock clock, Map<String, String> typed) {
        RuleSnapshot snapshot = snapshot(hash);
        List<ModuleRules> modules = new ArrayList<>();
        for (String module : index.modules()) {
            List<RuleRow> rows = new ArrayList<>();
            for (ApiIndexEntry entry : index.entries(module).values()) {
                for (ApiIndexEntry.Limit limit : entry.limits()) {
                    rows.add(row(entry, limit, hash, snapshot, audit, clock, typed));
                }
            }
            modules.add(new ModuleRules(module, rows));
        }
        return modules;
    }

    /**
     * The annotated rule {@code id} of {@code module} as the rules page shows it, read from that module's
     * index alone; {@code null} when the module declares no such rule.
     */
    static RuleRow find(ApiIndexRepository index, String module, String id, Map<String, String> hash,
                        RuleSnapshot snapshot, AuditTrail audit, LogClock clock) {
        for (ApiIndexEntry entry : index.entries(module).values()) {
            for (ApiIndexEntry.Limit limit : entry.limits()) {
                if (limit.rule().equals(id)) {
                    return row(entry, limit, hash, snapshot, audit, clock, Map.of());
                }
            }
        }
        return null;
    }

    /** The config hash as the limiter reads it. */
    static RuleSnapshot snapshot(Map<String, String> hash) {
        return SysConfigParser.parse(hash, 0, Instant.EPOCH, warning -> { });
    }

    private static RuleRow row(ApiIndexEntry entry, ApiIndexEntry.Limit limit, Map<String, String> hash,
                               RuleSnapshot snapshot, AuditTrail audit, LogClock clock, Map<String, String> typed) {
        String id = limit.rule();
        long declaredCount = declared(hash, id + COUNT_SUFFIX, limit.count());
        long declaredInterval = declared(hash, id + INTERVAL_SUFFIX, limit.intervalSeconds());
        RuleOverride override = snapshot.override(id);
        String count = Long.toString(override.count() != null ? override.count() : declaredCount);
        String interval = Long.toString(override.intervalSeconds() != null ? override.intervalSeconds() : declaredInterval);
        if (id.equals(typed.get("id"))) {
            count = typed.getOrDefault("count", count);
            interval = typed.getOrDefault("interval", interval);
        }
        List<String> changed = KNOBS.stream().map(suffix -> id + suffix)
                .filter(knob -> hash.containsKey(knob) && hash.containsKey(DECLARED_PREFIX + knob)
                        && !Objects.equals(hash.get(knob), hash.get(DECLARED_PREFIX + knob)))
                .toList();
        boolean overridden = !changed.isEmpty() || override.count() != null && override.count() != declaredCount
                || override.intervalSeconds() != null && override.intervalSeconds() != declaredInterval;
        Optional<AuditEntry> last = overridden ? audit.latest(changed.isEmpty() ? knobs(id) : changed).values()
                .stream().max(Comparator.comparing(AuditEntry::at)) : Optional.empty();
        List<String> ignored = knobs(id).stream().filter(snapshot.ignored()::containsKey)
                .map(knob -> knob + ": " + snapshot.ignored().get(knob)).toList();
        return new RuleRow(id, entry.pattern(), String.join(", ", entry.methods()), limit.dimension(), limit.algorithm(),
                limit.countWhen(), blockFor(limit), override.penalty() == null ? null : LimitSpec.formatBlocks(override.penalty()),
                limit.cost(), limit.quota(), limit.plan(), entry.limitsFromClass(), override.enabled(), snapshot.shadowRules().contains(id), count,
                interval, declaredCount,
                declaredInterval, overridden, last.map(AuditEntry::operator).orElse(null),
                last.map(change -> clock.format(change.at())).orElse(null), ignored);
    }

    /** The penalty in seconds as the {@code <rule>.block} field takes it, {@code "900..14400 s"}; {@code null} for none. */
    private static String blockFor(ApiIndexEntry.Limit limit) {
        if (limit.blockForMillis() == null) {
            return null;
        }
        long longest = limit.blockForMaxMillis() == null ? limit.blockForMillis() : limit.blockForMaxMillis();
        return LimitSpec.formatBlocks(new Penalty(limit.blockForMillis(), longest)) + " s";
    }

    private static List<String> knobs(String id) {
        return KNOBS.stream().map(suffix -> id + suffix).toList();
    }

    /** What the app that started last declared ({@code declared.<knob>}), else what the index says. */
    private static long declared(Map<String, String> hash, String knob, long indexed) {
        try {
            return SysConfigParser.parsePositive(hash.get(DECLARED_PREFIX + knob));
        } catch (IllegalArgumentException e) {
            return indexed;
        }
    }
}
