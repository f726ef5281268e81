package dev.ratelimit.interceptor.config.document;

import static dev.ratelimit.interceptor.config.document.RulesDocument.EXCEPTIONS;
import static dev.ratelimit.interceptor.config.document.RulesDocument.FORMAT_KEY;
import static dev.ratelimit.interceptor.config.document.RulesDocument.GLOBAL;
import static dev.ratelimit.interceptor.config.document.RulesDocument.IPS;
import static dev.ratelimit.interceptor.config.document.RulesDocument.LIMIT;
import static dev.ratelimit.interceptor.config.document.RulesDocument.LOG;
import static dev.ratelimit.interceptor.config.document.RulesDocument.MODULES;
import static dev.ratelimit.interceptor.config.document.RulesDocument.PLANS;
import static dev.ratelimit.interceptor.config.document.RulesDocument.URI_RULES;
import static dev.ratelimit.interceptor.config.document.RulesDocument.USERS;
import static dev.ratelimit.interceptor.config.document.RulesDocument.WHITELIST;

import dev.ratelimit.interceptor.InvalidValueException;
import dev.ratelimit.interceptor.config.IdentityException;
import dev.ratelimit.interceptor.config.Knob;
import dev.ratelimit.interceptor.config.RuleDescription;
import dev.ratelimit.interceptor.config.RuleMode;
import dev.ratelimit.interceptor.config.RulesInForce;
import dev.ratelimit.interceptor.config.SysConfigChange;
import dev.ratelimit.interceptor.config.SysConfigEditor;
import dev.ratelimit.interceptor.config.SysConfigParser;
import dev.ratelimit.interceptor.config.SysConfigWrite;
import dev.ratelimit.interceptor.rule.Endpoint;
import dev.ratelimit.interceptor.rule.RuleId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * What a {@link RulesDocument} would change, checked value by value with the editor's own checks
 * against the rules in force, and written exactly so: a preview lists every field it touches (added,
 * changed, removed, unchanged) and every value it refuses, with the reason; {@link Preview#apply()} writes
 * the lot in one atomic step, announced, and only while the hash is still at the version the preview
 * read. A document with one refused value changes nothing.
 */
public final class RulesImport {

    /** What an annotated rule's part of a document may set: every knob, then its plans and exceptions. */
    private static final String ANNOTATED_KEYS = Stream.concat(Arrays.stream(Knob.values()).map(Knob::key),
            Stream.of(PLANS, EXCEPTIONS)).collect(Collectors.joining(", "));
    /** What any rule may set, a limit of its own or not: the switches and the mode, not the limit's parts. */
    private static final String SWITCH_KEYS = Arrays.stream(Knob.values()).filter(knob -> !knob.setsLimit())
            .map(Knob::key).collect(Collectors.joining(", "));

    /** What happens to operators' values a document does not mention. */
    public enum Mode {
        /** They stay: the document's values are set, nothing else changes. */
        MERGE,
        /**
         * Within what the document covers (each module it names, and each of {@code global},
         * {@code whitelist} and {@code uri-rules} it has) they go: the knobs back to their declarations, and
         * plans, exceptions, penalties, {@code dyn} and {@code uri-rules} rules not in it removed.
         */
        REPLACE
    }

    /** What a write does to one field. */
    public enum Kind {
        ADDED, CHANGED, REMOVED, UNCHANGED
    }

    /** One field as the import would leave it; {@code null} for absent. */
    public record Change(String field, @Nullable String oldValue, @Nullable String newValue, Kind kind) {

        static Change of(SysConfigChange change) {
            Kind kind = Objects.equals(change.oldValue(), change.newValue()) ? Kind.UNCHANGED
                    : change.oldValue() == null ? Kind.ADDED : change.newValue() == null ? Kind.REMOVED : Kind.CHANGED;
            return new Change(change.field(), change.oldValue(), change.newValue(), kind);
        }
    }

    /**
     * A value of the document refused.
     *
     * @param where  the value's place in the document, e.g. {@code modules.demo.DemoController.hello.count}
     * @param reason why, with a message key when it is an {@link InvalidValueException} (in the operator's language)
     */
    public record Refused(String where, IllegalArgumentException reason) {
    }

    private RulesImport() {
    }

    /** What {@code document} would change in the hash the editor writes, under {@code rules}. */
    public static Preview preview(RulesInForce rules, SysConfigEditor editor, String document, Mode mode) {
        SysConfigEditor.Edit edit = editor.edit();
        List<Refused> refused = new ArrayList<>();
        Map<?, ?> content;
        try {
            content = RulesDocument.read(document);
        } catch (InvalidValueException e) {
            return new Preview(edit, List.of(), List.of(new Refused("document", e)));
        }
        new Reading(rules, edit, mode, refused).document(content);
        List<Change> changes = refused.isEmpty() ? edit.preview().stream().map(Change::of).toList() : List.of();
        return new Preview(edit, changes, refused);
    }

    /** What a document would change; {@link #apply()} writes exactly that. */
    public static final class Preview {

        private final SysConfigEditor.Edit edit;
        private final List<Change> changes;
        private final List<Refused> refused;
        private final long version;

        private Preview(SysConfigEditor.Edit edit, List<Change> changes, List<Refused> refused) {
            this.edit = edit;
            this.changes = List.copyOf(changes);
            this.refused = List.copyOf(refused);
            this.version = edit.version();
        }

        /** Every field the import writes, in the order of the document, unchanged ones included. */
        public List<Change> changes() {
            return changes;
        }

        /** Every field the import writes, with the rule each belongs to, for a check of who may apply it. */
        public List<SysConfigWrite> writes() {
            return edit.writes();
        }

        /** The values refused; when there is one, nothing can be applied. */
        public List<Refused> refused() {
            return refused;
        }

        /** The hash's version the preview read: it is applied only as long as the hash is still there. */
        public long version() {
            return version;
        }

        /** Whether anything would change and nothing was refused. */
        public boolean changesSomething() {
            return refused.isEmpty() && changes.stream().anyMatch(change -> change.kind() != Kind.UNCHANGED);
        }

        /**
         * Writes what the preview shows, in one atomic step, announced to every instance.
         *
         * @return the fields written, with their old and new values, for the audit trail
         * @throws InvalidValueException when a value was refused, or the hash changed since the preview
         */
        public List<SysConfigChange> apply() {
            return applyIf(version);
        }

        /**
         * The same, only while the hash is still at {@code version}: what a preview shown to an operator
         * read, posted back with the document.
         */
        public List<SysConfigChange> applyIf(long expectedVersion) {
            if (!refused.isEmpty()) {
                throw new InvalidValueException("ratelimit.document.refused", refused.size());
            }
            return changes.isEmpty() ? List.of() : edit.applyIf(expectedVersion);
        }
    }

    /** One pass over a document, adding its values to the edit and its refusals to the list. */
    private static final class Reading {

        private final RulesInForce rules;
        private final SysConfigEditor.Edit edit;
        private final Mode mode;
        private final List<Refused> refused;

        Reading(RulesInForce rules, SysConfigEditor.Edit edit, Mode mode, List<Refused> refused) {
            this.rules = rules;
            this.edit = edit;
            this.mode = mode;
            this.refused = refused;
        }

        void document(Map<?, ?> content) {
            for (Map.Entry<?, ?> section : content.entrySet()) {
                String name = String.valueOf(section.getKey());
                switch (name) {
                    case FORMAT_KEY -> { }
                    case GLOBAL -> map(name, section.getValue()).ifPresent(this::global);
                    case WHITELIST -> map(name, section.getValue()).ifPresent(this::whitelist);
                    case URI_RULES -> map(name, section.getValue()).ifPresent(this::uriRules);
                    case MODULES -> map(name, section.getValue()).ifPresent(this::modules);
                    default -> refuse(name, new InvalidValueException("ratelimit.document.unknownSection", name));
                }
            }
        }

        private void global(Map<?, ?> global) {
            Set<String> given = new HashSet<>();
            global.forEach((key, value) -> {
                String name = String.valueOf(key);
                String text = String.valueOf(value);
                given.add(name);
                attempt(GLOBAL + "." + name, () -> {
                    switch (name) {
                        case "check" -> edit.globalSwitch(SysConfigParser.parseSwitch(text));
                        case "mode" -> edit.globalMode(RuleMode.parse(text));
                        case LOG -> edit.logSwitch(SysConfigParser.parseSwitch(text));
                        default -> throw notHere(name, "check, mode, log");
                    }
                });
            });
            if (mode == Mode.REPLACE) {
                if (!given.contains("check")) {
                    edit.globalSwitch(true);
                }
                if (!given.contains("mode")) {
                    edit.globalMode(RuleMode.ENFORCE);
                }
                if (!given.contains(LOG)) {
                    edit.logSwitch(true);
                }
            }
        }

        private void whitelist(Map<?, ?> whitelist) {
            Set<String> given = new HashSet<>();
            whitelist.forEach((key, value) -> {
                String name = String.valueOf(key);
                given.add(name);
                attempt(WHITELIST + "." + name, () -> {
                    String entries = String.join(",", strings(value));
                    switch (name) {
                        case IPS -> edit.whitelistIps(entries);
                        case USERS -> edit.whitelistUsers(entries);
                        default -> throw notHere(name, "ips, users");
                    }
                });
            });
            if (mode == Mode.REPLACE) {
                if (!given.contains(IPS)) {
                    edit.whitelistIps("");
                }
                if (!given.contains(USERS)) {
                    edit.whitelistUsers("");
                }
            }
        }

        private void uriRules(Map<?, ?> uriRules) {
            Set<String> given = new HashSet<>();
            uriRules.forEach((pattern, limit) -> {
                given.add(String.valueOf(pattern));
                attempt(URI_RULES + "." + pattern, () -> edit.uriRule(String.valueOf(pattern), String.valueOf(limit)));
            });
            if (mode == Mode.REPLACE) {
                rules.uriRules().keySet().stream().filter(pattern -> !given.contains(pattern)).forEach(edit::removeUriRule);
            }
        }

        private void modules(Map<?, ?> modules) {
            modules.forEach((module, ofModule) -> {
                String name = String.valueOf(module);
                if (!rules.modules().contains(name)) {
                    refuse(MODULES + "." + name, new InvalidValueException("ratelimit.document.unknownModule", name));
                    return;
                }
                map(MODULES + "." + name, ofModule).ifPresent(values -> module(name, values));
            });
        }

        private void module(String module, Map<?, ?> ofModule) {
            Set<RuleId> given = new HashSet<>();
            ofModule.forEach((rule, values) -> {
                RuleId id = RuleId.of(module, String.valueOf(rule));
                given.add(id);
                String where = MODULES + "." + id;
                map(where, values).ifPresent(knobs -> rule(where, id, knobs));
            });
            if (mode == Mode.REPLACE) {
                rules.rules().stream().filter(rule -> rule.id().module().equals(module) && !given.contains(rule.id()))
                        .forEach(rule -> resetAll(rule, Set.of()));
            }
        }

        private void rule(String where, RuleId id, Map<?, ?> values) {
            RuleDescription.Source source = source(id);
            if (source == null) {
                refuse(where, new InvalidValueException("ratelimit.document.unknownRule", id));
                return;
            }
            Set<String> given = new HashSet<>();
            values.forEach((key, value) -> {
                String name = String.valueOf(key);
                given.add(name);
                attempt(where + "." + name, () -> value(source, id, name, value));
            });
            if (mode == Mode.REPLACE) {
                rules.rule(id).ifPresent(rule -> resetAll(rule, given));
            }
        }

        private void value(RuleDescription.Source source, RuleId id, String name, Object value) {
            Knob knob = Knob.ofKey(name);
            boolean annotated = source == RuleDescription.Source.ANNOTATION;
            if (knob != null && (annotated || !knob.setsLimit())) {
                edit.knob(id, knob, String.valueOf(value));
            } else if (name.equals(LIMIT) && source == RuleDescription.Source.DYN) {
                edit.dynamicRule(id, String.valueOf(value));
            } else if (name.equals(PLANS) && annotated) {
                map(name, value).ifPresent(plans -> plans.forEach((plan, limit) ->
                        attempt(MODULES + "." + id + "." + PLANS + "." + plan,
                                () -> edit.planLimit(id, String.valueOf(plan), String.valueOf(limit)))));
            } else if (name.equals(EXCEPTIONS) && annotated) {
                map(name, value).ifPresent(exceptions -> exceptions.forEach((identity, exception) ->
                        attempt(MODULES + "." + id + "." + EXCEPTIONS + "." + identity, () -> {
                            IdentityException parsed = IdentityException.parse(String.valueOf(exception));
                            edit.exception(id, String.valueOf(identity), parsed.count() + "/" + parsed.windowSeconds(),
                                    parsed.until());
                        })));
            } else {
                throw notHere(name, switch (source) {
                    case ANNOTATION -> ANNOTATED_KEYS;
                    case DYN -> LIMIT + ", " + SWITCH_KEYS;
                    case DYNURI -> SWITCH_KEYS;
                });
            }
        }

        /**
         * What declares {@code id} here: an annotation, an endpoint without one (a {@code dyn} rule), or a
         * {@code uri-rules} pattern (its switch in the module); {@code null} when nothing does.
         */
        private RuleDescription.@Nullable Source source(RuleId id) {
            Endpoint endpoint = rules.endpoint(id).orElse(null);
            if (endpoint != null && !endpoint.isAnnotated()) {
                return RuleDescription.Source.DYN;
            }
            if (rules.rule(id).map(rule -> rule.source() == RuleDescription.Source.ANNOTATION).orElse(false)) {
                return RuleDescription.Source.ANNOTATION;
            }
            return id.rule().startsWith("/") ? RuleDescription.Source.DYNURI : null;
        }

        /** Everything an operator set of a rule that {@code kept} does not name goes back to the declaration. */
        private void resetAll(RuleDescription rule, Set<String> kept) {
            RuleId id = rule.id();
            for (Knob knob : rule.overridden()) {
                if (kept.contains(knob.key())) {
                    continue;
                }
                if (!knob.merged() || rule.declared() == null) {
                    edit.removeKnob(id, knob);
                } else {
                    edit.knob(id, knob, Objects.requireNonNull(rule.declaredText(knob),
                            "a declared rule declares every knob"));
                }
            }
            if (!kept.contains(PLANS)) {
                rule.plans().keySet().forEach(plan -> edit.removePlanLimit(id, plan));
            }
            if (!kept.contains(EXCEPTIONS)) {
                rule.exceptions().keySet().forEach(identity -> edit.removeException(id, identity));
            }
            if (rule.source() == RuleDescription.Source.DYN && !kept.contains(LIMIT)) {
                edit.removeDynamicRule(id);
            }
        }

        private Optional<Map<?, ?>> map(String where, Object value) {
            if (value instanceof Map<?, ?> map) {
                return Optional.of(map);
            }
            if (value == null || "".equals(value)) {
                return Optional.of(Map.of());
            }
            refuse(where, new InvalidValueException("ratelimit.document.notAMap", where));
            return Optional.empty();
        }

        private static List<String> strings(Object value) {
            if (value instanceof List<?> list) {
                return list.stream().map(String::valueOf).toList();
            }
            return value == null ? List.of() : List.of(String.valueOf(value));
        }

        private void attempt(String where, Runnable value) {
            try {
                value.run();
            } catch (IllegalArgumentException e) {
                refuse(where, e);
            }
        }

        private void refuse(String where, IllegalArgumentException reason) {
            refused.add(new Refused(where, reason));
        }

        private static InvalidValueException notHere(String key, String allowed) {
            return new InvalidValueException("ratelimit.document.notHere", key, allowed);
        }
    }
}
