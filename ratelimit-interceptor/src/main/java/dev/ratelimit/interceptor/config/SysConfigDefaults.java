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
public class SysConfigDefaults {

    private static final Logger log = LoggerFactory.getLogger(SysConfigDefaults.class);
    private static final String ON = "1";

    private final EndpointCatalog catalog;
    private final SysConfigRepository repository;

    public SysConfigDefaults(EndpointCatalog catalog, SysConfigRepository repository) {
        this.catalog = catalog;
        this.repository = repository;
    }

    /** Merges the declarations into the hash; throws when Redis cannot be reached. */
    public void write() {
        Map<String, String> declared = defaults(catalog.endpoints());
        repository.mergeDeclared(declared).forEach((field, configured) -> log.info(
                "Rate limit config: {} is {} in the config hash, set by an operator (declared: {}); the config hash "
                        + "decides until it is reset to the declaration", field, LimitSpec.abbreviate(configured),
                declared.get(field)));
    }

    /** The default of every knob of these endpoints, by field. */
    private static Map<String, String> defaults(List<Endpoint> endpoints) {
        Map<String, String> fields = new TreeMap<>();
        fields.put(GLOBAL_CHECK, ON);
        fields.put(GLOBAL_MODE, RuleMode.ENFORCE.value());
        fields.put(LOG_CHECK, ON);
        for (Endpoint endpoint : endpoints) {
            for (LimitDefinition limit : endpoint.limits()) {
                fields.put(Knob.CHECK.field(limit.id()), ON);
                fields.put(Knob.WINDOW.field(limit.id()), Long.toString(limit.windowSeconds()));
                fields.put(Knob.COUNT.field(limit.id()), Long.toString(limit.count()));
                fields.put(Knob.MODE.field(limit.id()), RuleMode.ENFORCE.value());
            }
        }
        return fields;
    }
}
