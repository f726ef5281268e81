package dev.ratelimit.apiindex;

import dev.ratelimit.interceptor.rule.Endpoint;
import dev.ratelimit.interceptor.rule.EndpointCatalog;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.util.AntPathMatcher;

/**
 * Reports the app's handler methods to its module's API index, replacing what the previous start
 * reported. Names come from the interceptor's {@link EndpointCatalog}, so the index names every
 * endpoint exactly as the interceptor and the config hash do. A handler method whose every URL
 * pattern is excluded from limiting ({@code ratelimit.excluded-paths}) is left out: no rule could
 * apply to it.
 */
public class ApiIndexReporter {

    private static final Logger log = LoggerFactory.getLogger(ApiIndexReporter.class);
    private static final AntPathMatcher PATHS = new AntPathMatcher();

    private final EndpointCatalog catalog;
    private final ApiIndexRepository repository;
    private final List<String> excludedPaths;

    public ApiIndexReporter(EndpointCatalog catalog, ApiIndexRepository repository, List<String> excludedPaths) {
        this.catalog = catalog;
        this.repository = repository;
        this.excludedPaths = List.copyOf(excludedPaths);
    }

    /** Writes the index now; throws when Redis does not take it. */
    public void report() {
        Map<String, ApiIndexEntry> entries = new TreeMap<>();
        for (Endpoint endpoint : catalog.endpoints()) {
            if (!excluded(endpoint)) {
                entries.put(endpoint.id(), ApiIndexEntry.of(endpoint));
            }
        }
        String module = catalog.naming().module();
        repository.replace(module, entries);
        log.info("Reported {} handler methods of module {} to the API index", entries.size(), module);
    }

    private boolean excluded(Endpoint endpoint) {
        return !endpoint.patterns().isEmpty() && endpoint.patterns().stream()
                .allMatch(pattern -> excludedPaths.stream().anyMatch(excluded -> PATHS.match(excluded, pattern)));
    }
}
