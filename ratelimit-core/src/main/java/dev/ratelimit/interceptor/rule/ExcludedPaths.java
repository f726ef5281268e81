package dev.ratelimit.interceptor.rule;

import java.util.List;
import org.springframework.util.AntPathMatcher;

/**
 * The Ant patterns of paths never limited ({@code ratelimit.excluded-paths}): the interceptor is not
 * registered on them, and the API index leaves out endpoints that live only there, since no rule
 * could apply to them. Shared as a bean so that every module reads the setting the same way.
 */
public record ExcludedPaths(List<String> patterns) {

    private static final AntPathMatcher PATHS = new AntPathMatcher();

    public ExcludedPaths {
        patterns = List.copyOf(patterns);
    }

    /** Whether every URL pattern of {@code endpoint} lies under an excluded path. */
    public boolean excludes(Endpoint endpoint) {
        return !endpoint.patterns().isEmpty() && endpoint.patterns().stream()
                .allMatch(pattern -> patterns.stream().anyMatch(excluded -> PATHS.match(excluded, pattern)));
    }
}
