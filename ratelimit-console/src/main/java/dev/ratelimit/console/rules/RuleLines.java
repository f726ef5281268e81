package dev.ratelimit.console.rules;

import dev.ratelimit.console.audit.AuditEntry;
import dev.ratelimit.console.audit.AuditTrail;
import dev.ratelimit.console.logs.LogClock;
import dev.ratelimit.interceptor.config.Knob;
import dev.ratelimit.interceptor.config.RuleDescription;
import dev.ratelimit.interceptor.config.RulesInForce;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/** The annotated rules of each module as the rules page lists them, from the rules in force. */
final class RuleLines {

    private RuleLines() {
    }

    /** @param typed what the operator typed into a refused rule form ({@code module}, {@code rule}, {@code count}, ...), else empty */
    static List<ModuleRules> of(RulesInForce rules, AuditTrail audit, LogClock clock, Map<String, String> typed) {
        List<ModuleRules> modules = new ArrayList<>();
        for (String module : new TreeSet<>(rules.modules())) {
            List<RuleLine> lines = new ArrayList<>();
            for (RuleDescription rule : rules.rules()) {
                if (rule.source() == RuleDescription.Source.ANNOTATION && rule.id().module().equals(module)) {
                    lines.add(line(rule, audit, clock, typed));
                }
            }
            modules.add(new ModuleRules(module, lines));
        }
        return modules;
    }

    static RuleLine line(RuleDescription rule, AuditTrail audit, LogClock clock, Map<String, String> typed) {
        String count = rule.text(Knob.COUNT);
        String window = rule.text(Knob.WINDOW);
        if (rule.id().module().equals(typed.get("module")) && rule.id().rule().equals(typed.get("rule"))) {
            count = typed.getOrDefault("count", count);
            window = typed.getOrDefault("interval", window);
        }
        Optional<AuditEntry> last = rule.overridden().isEmpty() ? Optional.empty()
                : audit.latest(rule.overridden().stream().map(knob -> knob.field(rule.id())).toList()).values().stream()
                        .max(Comparator.comparing(AuditEntry::at));
        return new RuleLine(rule, count, window, last.map(AuditEntry::operator).orElse(null),
                last.map(change -> clock.format(change.at())).orElse(null));
    }
}
