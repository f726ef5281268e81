package dev.ratelimit.interceptor.config;

import dev.ratelimit.interceptor.rule.EndpointCatalog;
import dev.ratelimit.interceptor.rule.RuleNaming;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * This app's rules in force: its endpoints (from the {@link EndpointCatalog}) under the config snapshot
 * in force, made anew when either changes and otherwise one {@code volatile} read away.
 */
public class RuleCatalog {

    private final EndpointCatalog endpoints;
    private final RuleSnapshotHolder snapshots;
    private volatile @Nullable Made current;

    public RuleCatalog(EndpointCatalog endpoints, RuleSnapshotHolder snapshots) {
        this.endpoints = endpoints;
        this.snapshots = snapshots;
    }

    /** The rules in force now. */
    public RulesInForce current() {
        RuleSnapshot snapshot = snapshots.current();
        long registered = endpoints.version();
        Made made = current;
        if (made == null || made.rules().snapshot() != snapshot || made.endpointsVersion() != registered) {
            // Two threads may both make it: the same immutable value, the second replaces the first.
            made = new Made(RulesInForce.of(endpoints.endpoints(), Set.of(endpoints.naming().module()), snapshot),
                    registered);
            current = made;
        }
        return made.rules();
    }

    /** How the app names its modules and rules. */
    public RuleNaming naming() {
        return endpoints.naming();
    }

    /**
     * The rules in force once the hash has been read now: for deciding what to write next (an import's
     * preview), where a snapshot a check interval old would only make the write refused as outdated.
     */
    public RulesInForce readNow() {
        snapshots.refresh();
        return current();
    }

    private record Made(RulesInForce rules, long endpointsVersion) {
    }
}
