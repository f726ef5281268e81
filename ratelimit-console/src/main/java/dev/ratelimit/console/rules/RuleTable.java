package dev.ratelimit.console.rules;

import static dev.ratelimit.interceptor.config.SysConfigFields.CHECK_SUFFIX;
import static dev.ratelimit.interceptor.config.SysConfigFields.COUNT_SUFFIX;
import static dev.ratelimit.interceptor.config.SysConfigFields.INTERVAL_SUFFIX;
import static dev.ratelimit.interceptor.config.SysConfigFields.MODE_SUFFIX;

import dev.ratelimit.apiindex.ApiIndexEntry;
import dev.ratelimit.apiindex.ApiIndexRepository;
import dev.ratelimit.interceptor.config.RuleMode;
import dev.ratelimit.interceptor.config.SysConfigParser;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Joins the API index (what each module declares) with the config hash (what is in force). */
final class RuleTable {

    private RuleTable() {
    }

    static List<ModuleRules> build(ApiIndexRepository index, Map<String, String> hash) {
        List<ModuleRules> modules = new ArrayList<>();
        for (String module : index.modules()) {
            List<RuleRow> rows = new ArrayList<>();
            for (ApiIndexEntry entry : index.entries(module).values()) {
                for (ApiIndexEntry.Limit limit : entry.limits()) {
                    rows.add(new RuleRow(limit.rule(), entry.pattern(), String.join(", ", entry.methods()),
                            limit.dimension(), limit.algorithm(), enabled(hash.get(limit.rule() + CHECK_SUFFIX)),
                            shadow(hash.get(limit.rule() + MODE_SUFFIX)),
                            hash.getOrDefault(limit.rule() + COUNT_SUFFIX, Long.toString(limit.count())),
                            hash.getOrDefault(limit.rule() + INTERVAL_SUFFIX, Long.toString(limit.intervalSeconds())),
                            limit.count(), limit.intervalSeconds()));
                }
            }
            modules.add(new ModuleRules(module, rows));
        }
        return modules;
    }

    /** A mode that is absent or does not parse enforces, as the interceptor reads it. */
    static boolean shadow(String value) {
        try {
            return value != null && RuleMode.parse(value) == RuleMode.SHADOW;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** A switch that is absent or does not parse is on, as the interceptor reads it. */
    static boolean enabled(String value) {
        if (value == null) {
            return true;
        }
        try {
            return SysConfigParser.parseSwitch(value);
        } catch (IllegalArgumentException e) {
            return true;
        }
    }
}
