package dev.ratelimit.interceptor.config.document;

import dev.ratelimit.interceptor.InvalidValueException;
import dev.ratelimit.interceptor.config.Knob;
import dev.ratelimit.interceptor.config.RuleDescription;
import dev.ratelimit.interceptor.config.RuleSnapshot;
import dev.ratelimit.interceptor.config.RulesInForce;
import dev.ratelimit.interceptor.config.SysConfigFields;
import dev.ratelimit.interceptor.identity.Whitelist;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.representer.Representer;
import org.yaml.snakeyaml.resolver.Resolver;

/**
 * The rules operators set, as one readable YAML document: what teams keep in version control and promote
 * from staging to production. Grouped by module and rule in a stable order (sorted, knobs in the order of
 * {@link Knob}), each value with the declared one beside it as a comment, and nothing that changes from
 * one export of the same rules to the next, so that two exports of the same rules are the same text.
 *
 * <pre>
 * ratelimit-rules: 1
 * global:
 *   check: on
 *   mode: enforce
 *   log: on
 * whitelist:
 *   ips:
 *     - 10.0.0.0/8
 *   users: []
 * uri-rules:
 *   /api/**: 100/60 ip
 * modules:
 *   demo:
 *     DemoController.hello:
 *       count: 2  # declared: 3
 *       plans:
 *         pro: 50/60
 *       exceptions:
 *         alice: 500/60 until 2026-12-08T00:00:00Z
 *     DemoController.open:
 *       limit: 1/60  # dyn: the endpoint has no annotation
 *     /api/**:
 *       check: off  # the uri rule /api/** in this module
 * </pre>
 *
 * Under {@code modules}, an annotated rule lists the knobs an operator set to something else than its
 * declaration, and its plans and client exceptions; an endpoint without annotation its {@code dyn} limit
 * ({@code limit}) and switch; a {@code uri-rules} pattern its switch in the module.
 */
public final class RulesDocument {

    /** The format this class writes and reads, the value of {@code ratelimit-rules}. */
    public static final String FORMAT = "1";
    static final String FORMAT_KEY = "ratelimit-rules";
    static final String GLOBAL = "global";
    static final String WHITELIST = "whitelist";
    static final String URI_RULES = "uri-rules";
    static final String MODULES = "modules";
    static final String LOG = "log";
    static final String IPS = "ips";
    static final String USERS = "users";
    static final String LIMIT = "limit";
    static final String PLANS = "plans";
    static final String EXCEPTIONS = "exceptions";
    /** What YAML reads back as the same text without quotes: no indicator, no {@code ": "} or {@code " #"}. */
    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_./~()][A-Za-z0-9_./~()#@+ -]*[A-Za-z0-9_./~()#@+-]|[A-Za-z0-9_.~]");
    private static final int MAX_DOCUMENT_CODE_POINTS = 16 * 1024 * 1024;
    /** What a section that names clients reads when they are hidden: Spring Boot's mask of a sensitive value. */
    static final String HIDDEN = "******";

    private RulesDocument() {
    }

    /** The values operators set of these rules. */
    public static String write(RulesInForce rules) {
        return write(rules, true);
    }

    /**
     * The same; without {@code clients}, the sections that name clients (the whitelist, each rule's
     * exceptions) are {@code '******'}, which an import refuses: a document that hides them cannot replace them.
     */
    public static String write(RulesInForce rules, boolean clients) {
        RuleSnapshot snapshot = rules.snapshot();
        StringBuilder out = new StringBuilder();
        out.append("# Rate limit rules: the values operators set, each with what the app declares beside it.\n")
                .append("# Import it on the console's rules page, or with RuleDocuments: modules and rules the\n")
                .append("# target does not know are refused.\n")
                .append(FORMAT_KEY).append(": ").append(FORMAT).append('\n');
        out.append(GLOBAL).append(":\n");
        line(out, 1, Knob.CHECK.key(), snapshot.globalCheck() ? "on" : "off", null);
        line(out, 1, Knob.MODE.key(), snapshot.globalMode().value(), null);
        line(out, 1, LOG, snapshot.logCheck() ? "on" : "off", null);
        if (clients) {
            out.append(WHITELIST).append(":\n");
            list(out, IPS, Whitelist.split(snapshot.fields().get(SysConfigFields.WHITELIST_IPS)));
            list(out, USERS, Whitelist.split(snapshot.fields().get(SysConfigFields.WHITELIST_USERS)));
        } else {
            line(out, 0, WHITELIST, HIDDEN, null);
        }
        SortedMap<String, String> uriRules = rules.uriRules();
        out.append(URI_RULES).append(':').append(uriRules.isEmpty() ? " {}\n" : "\n");
        uriRules.forEach((pattern, limit) -> line(out, 1, pattern, limit, null));
        SortedMap<String, SortedMap<String, RuleDescription>> byModule = new TreeMap<>();
        for (RuleDescription rule : rules.rules()) {
            if (isSet(rule)) {
                byModule.computeIfAbsent(rule.id().module(), module -> new TreeMap<>()).put(rule.id().rule(), rule);
            }
        }
        out.append(MODULES).append(':').append(byModule.isEmpty() ? " {}\n" : "\n");
        byModule.forEach((module, ofModule) -> {
            out.append(indent(1)).append(scalar(module)).append(":\n");
            ofModule.forEach((name, rule) -> rule(out, name, rule, clients));
        });
        return out.toString();
    }

    /** Whether an operator set anything of this rule: then the document lists it. */
    private static boolean isSet(RuleDescription rule) {
        return rule.source() == RuleDescription.Source.DYN || !rule.overridden().isEmpty() || !rule.plans().isEmpty()
                || !rule.exceptions().isEmpty();
    }

    private static void rule(StringBuilder out, String name, RuleDescription rule, boolean clients) {
        out.append(indent(2)).append(scalar(name)).append(":\n");
        if (rule.source() == RuleDescription.Source.DYN) {
            line(out, 3, LIMIT, rule.inForce().text(), "dyn: the endpoint has no annotation");
        }
        for (Knob knob : rule.overridden()) {
            String declared = rule.source() == RuleDescription.Source.ANNOTATION ? "declared: " + rule.declaredText(knob)
                    : rule.source() == RuleDescription.Source.DYNURI ? "the uri rule " + rule.pattern() + " in this module"
                    : null;
            line(out, 3, knob.key(), rule.text(knob), declared);
        }
        if (!rule.plans().isEmpty()) {
            out.append(indent(3)).append(PLANS).append(":\n");
            rule.plans().forEach((plan, limit) -> line(out, 4, plan, limit, null));
        }
        if (!rule.exceptions().isEmpty() && !clients) {
            line(out, 3, EXCEPTIONS, HIDDEN, null);
        } else if (!rule.exceptions().isEmpty()) {
            out.append(indent(3)).append(EXCEPTIONS).append(":\n");
            rule.exceptions().forEach((identity, exception) -> line(out, 4, identity, exception.format(), null));
        }
    }

    private static void list(StringBuilder out, String key, List<String> values) {
        out.append(indent(1)).append(key).append(':');
        if (values.isEmpty()) {
            out.append(" []\n");
            return;
        }
        out.append('\n');
        values.forEach(value -> out.append(indent(2)).append("- ").append(scalar(value)).append('\n'));
    }

    private static void line(StringBuilder out, int depth, String key, String value, @Nullable String comment) {
        out.append(indent(depth)).append(scalar(key)).append(": ").append(scalar(value));
        if (comment != null) {
            out.append("  # ").append(comment);
        }
        out.append('\n');
    }

    private static String indent(int depth) {
        return "  ".repeat(depth);
    }

    /** A plain scalar when YAML reads it back as the same text, else single-quoted. */
    private static String scalar(String text) {
        return PLAIN.matcher(text).matches() ? text : "'" + text.replace("'", "''") + "'";
    }

    /**
     * A document's content as YAML reads it, every scalar a string ({@code on} stays {@code "on"}, {@code 5}
     * stays {@code "5"}): what the rest of the import checks.
     *
     * @throws InvalidValueException when it is not YAML, or not a rules document of this format
     */
    static Map<?, ?> read(String text) {
        Object content;
        try {
            content = yaml().load(text == null ? "" : text);
        } catch (YAMLException e) {
            throw new InvalidValueException("ratelimit.document.notYaml", firstLine(e.getMessage()));
        }
        if (!(content instanceof Map<?, ?> document) || !FORMAT.equals(document.get(FORMAT_KEY))) {
            Object format = content instanceof Map<?, ?> map ? map.get(FORMAT_KEY) : null;
            throw new InvalidValueException("ratelimit.document.format", String.valueOf(format));
        }
        return document;
    }

    private static Yaml yaml() {
        LoaderOptions options = new LoaderOptions();
        options.setAllowDuplicateKeys(false);
        options.setMaxAliasesForCollections(0);
        options.setCodePointLimit(MAX_DOCUMENT_CODE_POINTS);
        DumperOptions dumper = new DumperOptions();
        return new Yaml(new SafeConstructor(options), new Representer(dumper), dumper, options, new Resolver() {
            @Override
            protected void addImplicitResolvers() {
                // none: every scalar is a string, as the config hash holds it
            }
        });
    }

    private static String firstLine(@Nullable String message) {
        return message == null ? "" : message.lines().findFirst().orElse("");
    }
}
