package dev.ratelimit.console.dynamic;

import static dev.ratelimit.interceptor.config.SysConfigFields.DYNURI_PREFIX;
import static dev.ratelimit.interceptor.config.SysConfigFields.DYN_PREFIX;

import dev.ratelimit.apiindex.ApiIndexEntry;
import dev.ratelimit.apiindex.ApiIndexRepository;
import dev.ratelimit.interceptor.config.RuleSnapshot;
import dev.ratelimit.interceptor.config.SysConfigParser;
import dev.ratelimit.interceptor.config.UriRule;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The dynamic rules of the config hash beside the API index. The preview asks the very snapshot code
 * the interceptor uses which pattern wins for each endpoint, so what it shows is what will happen.
 */
final class DynamicRules {

    private final Map<String, IndexedEndpoint> endpoints;
    private final Map<String, String> hash;

    DynamicRules(ApiIndexRepository index, Map<String, String> hash) {
        this.endpoints = new LinkedHashMap<>();
        for (String module : index.modules()) {
            for (Map.Entry<String, ApiIndexEntry> entry : index.entries(module).entrySet()) {
                ApiIndexEntry value = entry.getValue();
                endpoints.put(entry.getKey(), new IndexedEndpoint(entry.getKey(), value.pattern(),
                        String.join(", ", value.methods()), !value.limits().isEmpty()));
            }
        }
        this.hash = hash;
    }

    /** Endpoints a {@code dyn} rule can limit: those without annotation. */
    List<IndexedEndpoint> unannotatedEndpoints() {
        return endpoints.values().stream().filter(endpoint -> !endpoint.annotated()).toList();
    }

    List<DynamicRuleRow> endpointRules() {
        return rows(DYN_PREFIX, true);
    }

    List<DynamicRuleRow> uriRules() {
        return rows(DYNURI_PREFIX, false);
    }

    /** The indexed endpoints {@code pattern} matches, and what it would do to each. */
    List<PreviewRow> preview(String pattern) {
        RuleSnapshot alone = snapshot(Map.of(DYNURI_PREFIX + pattern, "1"));
        Map<String, String> withCandidate = new HashMap<>(hash);
        withCandidate.put(DYNURI_PREFIX + pattern, "1");
        RuleSnapshot together = snapshot(withCandidate);
        List<PreviewRow> rows = new ArrayList<>();
        for (IndexedEndpoint endpoint : endpoints.values()) {
            if (alone.uriRule(endpoint.pattern()) == null) {
                continue;
            }
            UriRule winner = together.uriRule(endpoint.pattern());
            String effect = endpoint.annotated() ? "annotated"
                    : hash.containsKey(DYN_PREFIX + endpoint.id()) ? "hasDyn"
                    : winner.pattern().equals(pattern) ? "wins" : "shadowed";
            rows.add(new PreviewRow(endpoint, effect, winner.pattern()));
        }
        return rows;
    }

    private List<DynamicRuleRow> rows(String prefix, boolean endpointRule) {
        List<DynamicRuleRow> rows = new ArrayList<>();
        hash.entrySet().stream()
                .filter(field -> field.getKey().startsWith(prefix))
                .sorted(Map.Entry.comparingByKey())
                .forEach(field -> {
                    String target = field.getKey().substring(prefix.length());
                    rows.add(new DynamicRuleRow(target, field.getValue(), endpointRule ? endpoints.get(target) : null));
                });
        return rows;
    }

    private static RuleSnapshot snapshot(Map<String, String> fields) {
        return SysConfigParser.parse(fields, 0, Instant.EPOCH, warning -> { });
    }
}
