package dev.ratelimit.apiindex;

import dev.ratelimit.interceptor.config.ConfigReadListener;
import dev.ratelimit.interceptor.config.RuleSnapshot;
import dev.ratelimit.interceptor.rule.Endpoint;
import dev.ratelimit.interceptor.rule.EndpointCatalog;
import dev.ratelimit.interceptor.rule.ExcludedPaths;
import dev.ratelimit.interceptor.rule.RuleId;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reports the app's handler methods to its module's API index, replacing what the previous start
 * reported. Names come from the interceptor's {@link EndpointCatalog}, so the index names every
 * endpoint exactly as the interceptor and the config hash do. A handler method whose every URL
 * pattern is excluded from limiting ({@code ratelimit.excluded-paths}) is left out: no rule could
 * apply to it.
 *
 * <p>The index comes back when it is missing, not only at start-up: each time the instance reads the
 * config hash (every {@code ratelimit.config.refresh-interval}, and at once when the hash had been lost)
 * it checks that its module's index is there, and reports it again when Redis lost it.
 */
public class ApiIndexReporter implements ConfigReadListener {

    private static final Logger log = LoggerFactory.getLogger(ApiIndexReporter.class);
    private final EndpointCatalog catalog;
    private final ApiIndexRepository repository;
    private final ExcludedPaths excluded;
    /** Whether a report wrote an index: not before the first, made once the app is ready, nor for no endpoints. */
    private volatile boolean indexed;

    public ApiIndexReporter(EndpointCatalog catalog, ApiIndexRepository repository, ExcludedPaths excluded) {
        this.catalog = catalog;
        this.repository = repository;
        this.excluded = excluded;
    }

    /** Writes the index now; throws when Redis does not take it. */
    public void report() {
        Map<String, ApiIndexEntry> entries = new TreeMap<>();
        for (Endpoint endpoint : catalog.endpoints()) {
            if (!excluded.excludes(endpoint)) {
                entries.put(endpoint.id().toString(), ApiIndexEntry.of(endpoint));
            }
        }
        String module = catalog.naming().module();
        repository.replace(module, entries);
        indexed = !entries.isEmpty();
        log.info("Reported {} handler methods of module {} to the API index", entries.size(), module);
        warnOfIdsSpeltAlike(module);
    }

    /**
     * Warns of each rule or endpoint of this module written like one of another module whose name nests in
     * this one's, or this one's in it ({@code demo}'s {@code A.b} and {@code demo.A}'s {@code b} are both
     * {@code demo.A.b}): the config hash names a rule by that text, so the two would share every field. The
     * console refuses to change such fields; the apps cannot tell them apart, so it is said at start-up.
     */
    private void warnOfIdsSpeltAlike(String module) {
        List<String> nesting = repository.modules().stream().filter(other -> nests(module, other)).toList();
        if (nesting.isEmpty()) {
            return;
        }
        Map<String, RuleId> own = new TreeMap<>();
        catalog.endpoints().forEach(endpoint -> ids(endpoint).forEach(id -> own.put(id.toString(), id)));
        Set<RuleId> warned = new HashSet<>();
        for (Endpoint other : nesting.stream().flatMap(name -> repository.endpoints(name).stream()).toList()) {
            for (RuleId id : ids(other)) {
                RuleId alike = own.get(id.toString());
                if (alike != null && !alike.equals(id) && warned.add(id)) {
                    log.warn("Rule {} of module {} is written like rule {} of module {} ({}): the config hash names a "
                            + "rule by that text, so the two share every field (switch, count, window...) and the "
                            + "console refuses to change them. Give one module a name that does not start with the "
                            + "other's (ratelimit.module), or one rule another name (@RateLimit(rule = ...))",
                            alike.rule(), alike.module(), id.rule(), id.module(), id);
                }
            }
        }
    }

    /** Whether two different modules' names nest: one starts with the other and a dot. */
    private static boolean nests(String module, String other) {
        return !module.equals(other) && (module.startsWith(other + ".") || other.startsWith(module + "."));
    }

    /** The endpoint's id and the ids of the rules it declares. */
    private static List<RuleId> ids(Endpoint endpoint) {
        List<RuleId> ids = new ArrayList<>();
        ids.add(endpoint.id());
        endpoint.limits().forEach(limit -> ids.add(limit.id()));
        return ids;
    }

    /**
     * Reports the index again when Redis lost it; not before the first report, made once the app is ready,
     * nor for a module without endpoints, whose index is no key at all.
     */
    @Override
    public void configRead(RuleSnapshot inForce, boolean restored) {
        if (indexed && !repository.isReported(catalog.naming().module())) {
            log.warn("The API index of module {} was gone from Redis; reporting it again", catalog.naming().module());
            report();
        }
    }
}
