package dev.ratelimit.console.dynamic;

import static dev.ratelimit.interceptor.config.SysConfigFields.DYNURI_PREFIX;
import static dev.ratelimit.interceptor.config.SysConfigFields.DYN_PREFIX;

import dev.ratelimit.apiindex.ApiIndexEntry;
import dev.ratelimit.apiindex.ApiIndexRepository;
import dev.ratelimit.interceptor.InvalidValueException;
import dev.ratelimit.interceptor.config.RuleSnapshot;
import dev.ratelimit.interceptor.config.SysConfigParser;
import dev.ratelimit.interceptor.config.UriRule;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The dynamic rules of the config hash beside the API index. The preview asks the very snapshot code
 * the interceptor uses which pattern wins for each endpoint, so what it shows is what will happen.
 */
final class DynamicRules {

    private final Map<String, IndexedEndpoint> endpoints;
    private final Map<String, String> hash;
    private final Function<InvalidValueException, String> localized;

    /** @param localized a refusal in the operator's language */
    DynamicRules(ApiIndexRepository index, Map<String, String> hash, Function<InvalidValueException, String> localized) {
        this.endpoints = new LinkedHashMap<>();
        for (String module : index.modules()) {
            for (Map.Entry<String, ApiIndexEntry> entry : index.entries(module).entrySet()) {
                ApiIndexEntry value = entry.getValue();
                endpoints.put(entry.getKey(), new IndexedEndpoint(entry.getKey(), value.pattern(),
                        String.join(", ", value.methods()), !value.limits().isEmpty()));
            }
        }
        this.hash = hash;
        this.localized = localized;
    }

    /**
     * Refuses a {@code dyn} rule that could apply to nothing: an endpoint no index lists, or one with
     * {@code @RateLimit}, which a {@code dyn} rule never affects.
     */
    void checkEndpointRule(String endpointId) {
        IndexedEndpoint endpoint = endpoints.get(endpointId);
        if (endpoint == null) {
            throw new InvalidValueException("ratelimit.config.unknownEndpoint", endpointId);
        }
        if (endpoint.annotated()) {
            throw new InvalidValueException("ratelimit.config.annotatedEndpoint", endpointId);
        }
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
        Map<String, String> ignored = snapshot(hash).ignored();
        List<DynamicRuleRow> rows = new ArrayList<>();
        hash.entrySet().stream()
                .filter(field -> field.getKey().startsWith(prefix))
                .sorted(Map.Entry.comparingByKey())
                .forEach(field -> {
                    String target = field.getKey().substring(prefix.length());
                    String problem = ignored.get(field.getKey());
                    if (endpointRule && problem == null) {
                        try {
                            checkEndpointRule(target);
                        } catch (InvalidValueException e) {
                            problem = localized.apply(e);
                        }
                    }
                    rows.add(new DynamicRuleRow(target, field.getValue(), endpointRule ? endpoints.get(target) : null,
                            problem));
                });
        return rows;
    }

    private static RuleSnapshot snapshot(Map<String, String> fields) {
        return SysConfigParser.parse(fields, 0, Instant.EPOCH, warning -> { });
    }
}
