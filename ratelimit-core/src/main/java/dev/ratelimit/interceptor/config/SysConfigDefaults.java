package dev.ratelimit.interceptor.config;

import static dev.ratelimit.interceptor.config.SysConfigFields.GLOBAL_CHECK;
import static dev.ratelimit.interceptor.config.SysConfigFields.GLOBAL_MODE;
import static dev.ratelimit.interceptor.config.SysConfigFields.LOG_CHECK;

import dev.ratelimit.interceptor.rule.Endpoint;
import dev.ratelimit.interceptor.rule.EndpointCatalog;
import dev.ratelimit.interceptor.rule.LimitDefinition;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Puts every knob of the app into the config hash at start-up, so {@code HGETALL} shows them all:
 * {@code global.check}, {@code global.mode}, {@code log.check}, and {@code check}/{@code interval}/
 * {@code count}/{@code mode} of every annotated rule, each with its declared value, merged with what is
 * in force ({@code SysConfigRepository#mergeDeclared}): a knob an operator never changed follows a new
 * declaration, so a deploy that changes {@code @RateLimit} takes effect; a value an operator set is kept
 * and reported once, since it decides instead of the annotation. {@code dyn.*}/{@code dynuri.*} and
 * {@code whitelist.*} fields are never written: only operators add those.
 */
public class SysConfigDefaults implements ConfigReadListener {

    private static final Logger log = LoggerFactory.getLogger(SysConfigDefaults.class);
    private static final String ON = "1";

    private final EndpointCatalog catalog;
    private final SysConfigRepository repository;
    private final RuleSnapshotHolder snapshots;
    private volatile boolean merged;

    public SysConfigDefaults(EndpointCatalog catalog, SysConfigRepository repository, RuleSnapshotHolder snapshots) {
        this.catalog = catalog;
        this.repository = repository;
        this.snapshots = snapshots;
    }

    /**
     * Merges the declarations into the hash, once the instance has read it (and put back a copy of a hash
     * that was lost, which must not be merged over); throws when Redis cannot be reached.
     */
    public void write() {
        try {
            snapshots.awaitFirstLoad();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the first read of the config", e);
        }
        merge();
        merged = true;
    }

    /**
     * The declarations come back when missing, not only at start-up: a hash re-created without them (by
     * another app, or by hand) is merged again. Not before this instance's first merge: until the app is
     * ready its endpoints are not all known.
     */
    @Override
    public void configRead(RuleSnapshot inForce, boolean restored) {
        if (merged && !inForce.fields().keySet().containsAll(declaredFields(defaults(catalog.endpoints())))) {
            log.info("Rate limit config: this app's declarations are missing from the config hash; merging them again");
            merge();
        }
    }

    private void merge() {
        Map<String, String> declared = defaults(catalog.endpoints());
        repository.mergeDeclared(declared).forEach((field, configured) -> log.info(
                "Rate limit config: {} is {} in the config hash, set by an operator (declared: {}); the config hash "
                        + "decides until it is reset to the declaration", field, LimitSpec.abbreviate(configured),
                declared.get(field)));
    }

    private static List<String> declaredFields(Map<String, String> defaults) {
        return defaults.keySet().stream().map(SysConfigFields::declared).toList();
    }

    /** The default of every knob of these endpoints, by field. */
    private static Map<String, String> defaults(List<Endpoint> endpoints) {
        Map<String, String> fields = new TreeMap<>();
        fields.put(GLOBAL_CHECK, ON);
        fields.put(GLOBAL_MODE, RuleMode.ENFORCE.value());
        fields.put(LOG_CHECK, ON);
        for (Endpoint endpoint : endpoints) {
            for (LimitDefinition limit : endpoint.limits()) {
                for (Knob knob : Knob.values()) {
                    if (knob.merged()) {
                        fields.put(knob.field(limit.id()), knob.of(limit));
                    }
                }
            }
        }
        return fields;
    }
}
