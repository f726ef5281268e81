package dev.ratelimit.console.dynamic;

import dev.ratelimit.interceptor.InvalidValueException;
import dev.ratelimit.interceptor.config.RuleDescription;
import dev.ratelimit.interceptor.config.RulesInForce;
import dev.ratelimit.interceptor.config.SysConfigFields;
import dev.ratelimit.interceptor.rule.Endpoint;
import dev.ratelimit.interceptor.rule.RuleId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The dynamic rules as the limiter applies them, beside the API index. The preview asks the limiter's
 * own {@link RulesInForce}, with the candidate added, which pattern wins for each endpoint, so what it
 * shows is what will happen.
 */
final class DynamicRules {

    /** Limits a preview candidate with: its limit does not matter, only which rule applies. */
    private static final String ANY_LIMIT = "1";

    private final RulesInForce rules;
    private final Function<InvalidValueException, String> localized;

    /** @param localized a refusal in the operator's language */
    DynamicRules(RulesInForce rules, Function<InvalidValueException, String> localized) {
        this.rules = rules;
        this.localized = localized;
    }

    /**
     * Refuses a {@code dyn} rule that could apply to nothing: an endpoint no index lists, or one with
     * {@code @RateLimit}, which a {@code dyn} rule never affects.
     */
    void checkEndpointRule(RuleId endpointId) {
        Endpoint endpoint = endpointId == null ? null : rules.endpoint(endpointId).orElse(null);
        if (endpoint == null) {
            throw new InvalidValueException("ratelimit.config.unknownEndpoint", endpointId);
        }
        if (endpoint.isAnnotated()) {
            throw new InvalidValueException("ratelimit.config.annotatedEndpoint", endpointId);
        }
    }

    /**
     * The endpoint a form names, {@code <module>.<rule>} read against the endpoints and modules of the index;
     * {@code null} for none, and for a text two modules' endpoints share.
     */
    RuleId endpointId(String text) {
        return rules.resolve(text).orElse(null);
    }

    /** Endpoints a {@code dyn} rule can limit: those without annotation. */
    List<IndexedEndpoint> unannotatedEndpoints() {
        return rules.endpoints().stream().filter(endpoint -> !endpoint.isAnnotated()).map(DynamicRules::indexed)
                .toList();
    }

    /** Every {@code dyn} field of the index's modules: those that apply, those that limit nothing, and those that do not read. */
    List<DynamicRuleRow> endpointRules() {
        Map<String, DynamicRuleRow> rows = new TreeMap<>();
        for (RuleDescription rule : rules.rules()) {
            if (rule.source() == RuleDescription.Source.DYN) {
                rows.put(rule.id().toString(), new DynamicRuleRow(rule.id().toString(), rule.id().module(), rule.inForce().text(),
                        rules.endpoint(rule.id()).map(DynamicRules::indexed).orElse(null), null));
            }
        }
        rules.unappliedDynamicRules().values().forEach(rule -> rows.put(rule.endpoint().toString(),
                new DynamicRuleRow(rule.endpoint().toString(), rule.endpoint().module(), rule.limit(),
                        rules.endpoint(rule.endpoint()).map(DynamicRules::indexed).orElse(null),
                        localized.apply(rule.reason()))));
        ignored(SysConfigFields::dynTarget, rows);
        return List.copyOf(rows.values());
    }

    /** Every {@code dynuri} field: those that apply, and those that do not read. */
    List<DynamicRuleRow> uriRules() {
        Map<String, DynamicRuleRow> rows = new TreeMap<>();
        rules.snapshot().uriRules().forEach(rule -> rows.put(rule.pattern(),
                new DynamicRuleRow(rule.pattern(), null, rule.limit().format(), null, null)));
        ignored(SysConfigFields::dynUriTarget, rows);
        return List.copyOf(rows.values());
    }

    /** The indexed endpoints {@code pattern} matches, and what it would do to each. */
    List<PreviewRow> preview(String pattern) {
        RulesInForce together = rules.with(SysConfigFields.dynUri(pattern), ANY_LIMIT);
        List<PreviewRow> rows = new ArrayList<>();
        for (Endpoint endpoint : rules.endpoints()) {
            String path = endpoint.primaryPattern();
            if (!endpoint.isHttp() || !RulesInForce.matches(pattern, path)) {
                continue;
            }
            String winner = together.uriPattern(path).orElse(pattern);
            String effect = endpoint.isAnnotated() ? "annotated"
                    : rules.snapshot().fields().containsKey(SysConfigFields.dyn(endpoint.id())) ? "hasDyn"
                    : winner.equals(pattern) ? "wins" : "shadowed";
            rows.add(new PreviewRow(indexed(endpoint), effect, winner));
        }
        return rows;
    }

    /** Fields of a kind the limiter does not read, by what they name. */
    private void ignored(Function<String, String> target, Map<String, DynamicRuleRow> rows) {
        rules.snapshot().ignored().forEach((field, reason) -> {
            String named = target.apply(field);
            if (named != null) {
                rows.put(named, new DynamicRuleRow(named, SysConfigFields.dynUriTarget(field) != null ? null
                        : rules.resolve(named).map(RuleId::module).orElse(null),
                        rules.snapshot().fields().get(field), null, reason));
            }
        });
    }

    private static IndexedEndpoint indexed(Endpoint endpoint) {
        return new IndexedEndpoint(endpoint.id().toString(), endpoint.primaryPattern(),
                String.join(", ", endpoint.httpMethods().stream().sorted().toList()), endpoint.isAnnotated());
    }
}
