package dev.ratelimit.interceptor.config;

import static dev.ratelimit.interceptor.config.SysConfigFields.DYNURI_PREFIX;
import static dev.ratelimit.interceptor.config.SysConfigFields.DYN_PREFIX;
import static dev.ratelimit.interceptor.config.SysConfigFields.EXCEPTION_INFIX;
import static dev.ratelimit.interceptor.config.SysConfigFields.GLOBAL_CHECK;
import static dev.ratelimit.interceptor.config.SysConfigFields.GLOBAL_MODE;
import static dev.ratelimit.interceptor.config.SysConfigFields.LOG_CHECK;
import static dev.ratelimit.interceptor.config.SysConfigFields.WHITELIST_IPS;
import static dev.ratelimit.interceptor.config.SysConfigFields.WHITELIST_USERS;

import dev.ratelimit.interceptor.InvalidValueException;
import dev.ratelimit.interceptor.identity.CidrBlock;
import dev.ratelimit.interceptor.identity.DenyList;
import dev.ratelimit.interceptor.identity.Whitelist;
import dev.ratelimit.interceptor.rule.LimitDefinition;
import dev.ratelimit.interceptor.rule.RuleId;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Changes the config hash for operators' tools such as the console. Each change is checked before
 * anything is written, written in its canonical form, and announced on {@code {p}:config-changed}, so
 * every instance of every app refreshes its rules at once; every write advances the hash's
 * {@code config.version}.
 *
 * <p>Input that is refused throws {@link InvalidValueException} with a message fit to show the operator,
 * and nothing is written. Each write returns the fields' old and new values for the audit trail. Several
 * changes made with one {@link #edit()} are written together, in one atomic step.
 */
public class SysConfigEditor {

    static final int MAX_ID_LENGTH = 512;
    private static final String ON = "1";
    private static final String OFF = "0";

    private final SysConfigRepository repository;
    private final Clock clock;
    private final Consumer<List<SysConfigWrite>> writeCheck;
    private final Predicate<RuleId> declaredHere;
    private final Runnable putBack;

    public SysConfigEditor(SysConfigRepository repository, Clock clock) {
        this(repository, clock, rule -> false, () -> { });
    }

    /**
     * The editor of an app.
     *
     * @param declaredHere the rules this app declares, which may be edited before its declarations are merged
     *                     into the hash (they are, once it is ready)
     * @param putBack      puts the hash back when Redis does not hold it (this instance's snapshot, else its
     *                     declarations), so that a write made then, refused to keep the other values, can be made
     */
    public SysConfigEditor(SysConfigRepository repository, Clock clock, Predicate<RuleId> declaredHere,
                           Runnable putBack) {
        this(repository, clock, writes -> { }, declaredHere, putBack);
    }

    private SysConfigEditor(SysConfigRepository repository, Clock clock, Consumer<List<SysConfigWrite>> writeCheck,
                            Predicate<RuleId> declaredHere, Runnable putBack) {
        this.repository = repository;
        this.clock = clock;
        this.writeCheck = writeCheck;
        this.declaredHere = declaredHere;
        this.putBack = putBack;
    }

    /**
     * An editor that shows every write, each field with its new value ({@code null}: removed) and the rule it
     * belongs to, to {@code check} first; the check throws to refuse it, and nothing is written. For an
     * operator's permissions: the fields an edit writes are known only once the edit is built, and the rule
     * of each is known as the edit named it, not read back from the field's text.
     */
    public SysConfigEditor checkedBy(Consumer<List<SysConfigWrite>> check) {
        return new SysConfigEditor(repository, clock, writes -> {
            writeCheck.accept(writes);
            check.accept(writes);
        }, declaredHere, putBack);
    }

    /** Changes to be written together. */
    public Edit edit() {
        return new Edit();
    }

    /** {@code global.check}: the master switch of all limiting. */
    public SysConfigChange setGlobalSwitch(boolean on) {
        return edit().globalSwitch(on).applyOne();
    }

    /** {@code global.mode}: in {@link RuleMode#SHADOW} no rule rejects anything, whatever its own mode. */
    public SysConfigChange setGlobalMode(RuleMode mode) {
        return edit().globalMode(mode).applyOne();
    }

    /** {@code log.check}: whether interceptions are logged. */
    public SysConfigChange setLogSwitch(boolean on) {
        return edit().logSwitch(on).applyOne();
    }

    /** {@code <rule>.check}: switches one rule (annotated or dynamic) on or off. */
    public SysConfigChange setRuleSwitch(RuleId rule, boolean on) {
        return edit().ruleSwitch(rule, on).applyOne();
    }

    /** {@code <rule>.mode}: whether one rule (annotated or dynamic) rejects, or only logs, what it would deny. */
    public SysConfigChange setRuleMode(RuleId rule, RuleMode mode) {
        return edit().ruleMode(rule, mode).applyOne();
    }

    /**
     * {@code whitelist.ips}: clients never limited, as a comma-separated list of addresses and CIDR blocks
     * (IPv4, IPv6); empty clears it. Refused whole when an entry does not parse.
     */
    public SysConfigChange setWhitelistIps(String commaSeparated) {
        return edit().whitelistIps(commaSeparated).applyOne();
    }

    /**
     * {@code whitelist.users}: user codes never limited, comma-separated; empty clears it. They match only
     * users the server established (session, login), never a request parameter.
     */
    public SysConfigChange setWhitelistUsers(String commaSeparated) {
        return edit().whitelistUsers(commaSeparated).applyOne();
    }

    /**
     * {@code <rule>.count}: requests admitted per window, in place of the annotation's. Checked with the
     * window in force as the annotation is checked at start-up.
     */
    public SysConfigChange setRuleCount(RuleId rule, String count) {
        return edit().knob(rule, Knob.COUNT, count).applyOne();
    }

    /** {@code <rule>.interval}: the window in seconds, in place of the annotation's; checked with the count in force. */
    public SysConfigChange setRuleWindow(RuleId rule, String windowSeconds) {
        return edit().knob(rule, Knob.WINDOW, windowSeconds).applyOne();
    }

    /**
     * {@code <rule>.count} and {@code <rule>.interval} together, checked together before either is
     * written, as the annotation's are: a pair the limiter would not apply as written is refused.
     * {@code null} keeps the value in force (or declared) of that knob.
     *
     * @return the changes written, count first
     */
    public List<SysConfigChange> setRuleLimit(RuleId rule, @Nullable String count, @Nullable String windowSeconds) {
        Map<Knob, String> texts = new EnumMap<>(Knob.class);
        if (count != null) {
            texts.put(Knob.COUNT, count);
        }
        if (windowSeconds != null) {
            texts.put(Knob.WINDOW, windowSeconds);
        }
        return edit().knobs(rule, texts).apply();
    }

    /**
     * Sets each knob of a rule ({@code check}, {@code count}, {@code interval}, {@code mode}) back to what
     * the app declares ({@code declared.<knob>}) and removes its penalty, so that later deploys change it
     * again.
     *
     * @return the knobs that changed
     * @throws InvalidValueException when no app declared the rule
     */
    public List<SysConfigChange> resetToDeclared(RuleId rule) {
        return edit().resetToDeclared(rule).apply();
    }

    /**
     * {@code dyn.<endpoint>}: limits a handler method that has no annotation; {@code limit} as
     * {@link LimitSpec} reads it, e.g. {@code 5/60} or {@code 100/60 ip token_bucket}.
     */
    public SysConfigChange setDynamicRule(RuleId endpoint, String limit) {
        return edit().dynamicRule(endpoint, limit).applyOne();
    }

    /** Removes {@code dyn.<endpoint>}. */
    public SysConfigChange removeDynamicRule(RuleId endpoint) {
        return edit().removeDynamicRule(endpoint).applyOne();
    }

    /**
     * Removes {@code dyn.<endpoint>}, {@code endpoint} as the field names it, {@code <module>.<rule>}: for a rule
     * of an endpoint no module lists any more, whose module the text alone cannot tell.
     */
    public SysConfigChange removeDynamicRule(String endpoint) {
        return edit().removeDynamicRule(endpoint).applyOne();
    }

    /** {@code dynuri.<pattern>}: limits every path the Ant pattern matches; {@code limit} as for a {@code dyn} rule. */
    public SysConfigChange setUriRule(String pattern, String limit) {
        return edit().uriRule(pattern, limit).applyOne();
    }

    /** Removes a {@code dynuri.*} rule; a pattern that would be refused today can still be removed. */
    public SysConfigChange removeUriRule(String pattern) {
        return edit().removeUriRule(pattern).applyOne();
    }

    /**
     * {@code <rule>.penalty}: the penalty of a client the rule denied, in place of the annotation's:
     * {@code <seconds>}, {@code <first>..<longest>} (doubling for repeat offenders), or {@code 0} for none.
     */
    public SysConfigChange setRulePenalty(RuleId rule, String penalty) {
        return edit().rulePenalty(rule, penalty).applyOne();
    }

    /** Removes {@code <rule>.penalty}: the rule's penalty is the annotation's again. */
    public SysConfigChange removeRulePenalty(RuleId rule) {
        return edit().removeRulePenalty(rule).applyOne();
    }

    /**
     * {@code <rule>.plan.<plan>}: the count and window, {@code <count>/<interval>}, of one plan of a rule
     * whose annotation resolves plans ({@code @RateLimit(plan = ...)}).
     */
    public SysConfigChange setPlanLimit(RuleId rule, String plan, String limit) {
        return edit().planLimit(rule, plan, limit).applyOne();
    }

    public SysConfigChange removePlanLimit(RuleId rule, String plan) {
        return edit().removePlanLimit(rule, plan).applyOne();
    }

    /**
     * {@code <rule>.exception.<identity>}: until {@code until}, the client of this identity (what its
     * counter key names: a user code, an address...) gets {@code limit} ({@code <count>/<interval>}),
     * whatever its plan. Refused when it has already ended, or when the hash holds
     * {@link SysConfigParser#MAX_EXCEPTIONS} exceptions.
     */
    public SysConfigChange setException(RuleId rule, String identity, String limit, Instant until) {
        return edit().exception(rule, identity, limit, until).applyOne();
    }

    public SysConfigChange removeException(RuleId rule, String identity) {
        return edit().removeException(rule, identity).applyOne();
    }

    /**
     * {@code deny.<kind>.<target>}: refuses a client outright on every instance, before any limit counts it,
     * until {@code until} ({@code null}: until it is removed). The target is written in its canonical form
     * (an address or CIDR block with its host bits cleared, IPv6 as RFC 5952 writes it). Entries that have
     * ended are removed in the same write. Refused when {@code until} is not in the future, or when
     * {@link DenyList#MAX_ENTRIES} entries are in force and this one is new.
     *
     * @param note why, shown beside the entry: at most {@value DenyList#MAX_NOTE_LENGTH} printable characters, or empty
     * @return the entry written first, then each ended entry removed
     */
    public List<SysConfigChange> deny(DenyList.Kind kind, String target, @Nullable Instant until, String note) {
        return edit().deny(kind, target, until, note).apply();
    }

    /** Removes {@code deny.<kind>.<target>}, the target as the entry's field names it (as the list shows it). */
    public SysConfigChange undeny(DenyList.Kind kind, String target) {
        return edit().undeny(kind, target).applyOne();
    }

    /**
     * Deletes a counter, so its client starts afresh, and has every instance forget the denials it
     * remembered of it (the near cache) at once.
     *
     * @param counterKey the whole key, e.g. {@code ratelimit:counter:shop:OrderController.create:USER:alice}
     * @return whether the counter existed
     */
    public boolean resetCounter(String counterKey) {
        return repository.resetCounter(present(counterKey, "counterKey"));
    }

    /**
     * Changes checked one by one as they are added, and written together by {@link #apply()}: all of
     * them or, when the hash cannot be written, none. An edit reads the hash at most once, for the
     * values in force its checks need.
     */
    public final class Edit {

        private final Map<String, String> writes = new LinkedHashMap<>();
        /** The rule or endpoint of each field written that belongs to one. */
        private final Map<String, RuleId> rules = new HashMap<>();
        private @Nullable Map<String, String> hash;
        /** The exception fields of the hash with this edit's writes, counted once and then kept up to date. */
        private long exceptions = -1;

        private Edit() {
        }

        public Edit globalSwitch(boolean on) {
            return put(GLOBAL_CHECK, on ? ON : OFF);
        }

        public Edit globalMode(RuleMode mode) {
            return put(GLOBAL_MODE, mode.value());
        }

        public Edit logSwitch(boolean on) {
            return put(LOG_CHECK, on ? ON : OFF);
        }

        public Edit ruleSwitch(RuleId rule, boolean on) {
            return knob(rule, Knob.CHECK, on ? ON : OFF);
        }

        public Edit ruleMode(RuleId rule, RuleMode mode) {
            return knob(rule, Knob.MODE, mode.value());
        }

        /**
         * One knob from its text, as documents and forms write it ({@code on}, {@code 5}, {@code shadow},
         * {@code 300..3600}), written in its canonical form. A part of the limit's size is checked with what
         * this edit or the hash holds for the other parts, as the annotation's are.
         */
        public Edit knob(RuleId rule, Knob knob, String text) {
            return knobs(rule, Collections.singletonMap(knob, text));
        }

        /** Several knobs of a rule from their texts, as {@link #knob} writes one: the parts of the size checked together. */
        public Edit knobs(RuleId rule, Map<Knob, String> texts) {
            declaredId(rule);
            Map<Knob, String> canonical = new EnumMap<>(Knob.class);
            texts.forEach((knob, text) -> {
                String field = knob.field(rule);
                canonical.put(knob, parsed(field, () -> knob.canonical(text)));
            });
            if (LimitSize.anyIn(canonical)) {
                LimitSize size = LimitSize.of(knob -> canonical.containsKey(knob) ? canonical.get(knob) : inForce(rule, knob));
                parsed(rule.toString(), () -> {
                    size.check();
                    return null;
                });
            }
            canonical.forEach((knob, value) -> put(knob.field(rule), value, rule));
            return this;
        }

        public Edit whitelistIps(String commaSeparated) {
            List<String> entries = Whitelist.split(commaSeparated);
            for (String entry : entries) {
                parsed(WHITELIST_IPS, () -> CidrBlock.parse(entry));
            }
            return put(WHITELIST_IPS, String.join(",", new LinkedHashSet<>(entries)));
        }

        public Edit whitelistUsers(String commaSeparated) {
            return put(WHITELIST_USERS, String.join(",", new LinkedHashSet<>(Whitelist.split(commaSeparated))));
        }

        /**
         * Every knob back to the declaration: the merged ones to their {@code declared.*} value, the others
         * removed, so that the annotation applies.
         */
        public Edit resetToDeclared(RuleId rule) {
            checkedId(rule);
            boolean declared = false;
            for (Knob knob : Knob.values()) {
                String field = knob.field(rule);
                String value = hash().get(SysConfigFields.declared(field));
                if (knob.merged() && value != null) {
                    declared = true;
                    if (!value.equals(hash().get(field))) {
                        put(field, value, rule);
                    }
                } else if (!knob.merged() && hash().containsKey(field)) {
                    removeKnob(rule, knob);
                }
            }
            if (!declared) {
                throw new InvalidValueException("ratelimit.config.notDeclared", LimitSpec.abbreviate(rule.toString()));
            }
            return this;
        }

        public Edit dynamicRule(RuleId endpoint, String limit) {
            String field = SysConfigFields.dyn(checkedId(endpoint));
            return put(field, parsed(field, () -> LimitSpec.parse(limit).format()), endpoint);
        }

        /**
         * The count of a rule whatever set it, its other parts kept: a {@code dyn} rule's; a {@code dynuri} rule's
         * (the rule named by its pattern; the field is every app's, as on the dynamic rules page); or else the
         * annotated rule's {@code <rule>.count}.
         */
        public Edit ruleCount(RuleId rule, String count) {
            String field = SysConfigFields.dyn(checkedId(rule));
            String dynamic = current(field);
            if (dynamic != null) {
                return put(field, parsed(field, () -> LimitSpec.parse(dynamic).withCount(count).format()), rule);
            }
            String uriField = SysConfigFields.dynUri(rule.rule());
            String uri = current(uriField);
            if (uri != null) {
                return put(uriField, parsed(uriField, () -> LimitSpec.parse(uri).withCount(count).format()));
            }
            return knob(rule, Knob.COUNT, count);
        }

        /** The field's value as this edit leaves it so far: its own write, else the hash's. */
        private @Nullable String current(String field) {
            return writes.containsKey(field) ? writes.get(field) : hash().get(field);
        }

        public Edit removeDynamicRule(RuleId endpoint) {
            return put(SysConfigFields.dyn(checkedId(endpoint)), null, endpoint);
        }

        /** The same, the endpoint only as the field names it: a field of no rule known, which every app shares. */
        public Edit removeDynamicRule(String endpoint) {
            return put(SysConfigFields.DYN_PREFIX + present(endpoint, "endpointId"), null);
        }

        public Edit uriRule(String pattern, String limit) {
            String checked = present(pattern, "pattern");
            String field = SysConfigFields.dynUri(checked);
            parsed(field, () -> {
                SysConfigParser.validatePattern(checked);
                return null;
            });
            return put(field, parsed(field, () -> LimitSpec.parse(limit).format()));
        }

        public Edit removeUriRule(String pattern) {
            return put(SysConfigFields.dynUri(present(pattern, "pattern")), null);
        }

        public Edit rulePenalty(RuleId rule, String penalty) {
            return knob(rule, Knob.PENALTY, penalty);
        }

        public Edit removeRulePenalty(RuleId rule) {
            return removeKnob(rule, Knob.PENALTY);
        }

        /** Removes a knob's field: the rule's declaration applies again (and later deploys change it). */
        public Edit removeKnob(RuleId rule, Knob knob) {
            return put(knob.field(checkedId(rule)), null, rule);
        }

        public Edit planLimit(RuleId rule, String plan, String limit) {
            String field = SysConfigFields.plan(declaredId(rule), planName(plan));
            return put(field, rate(field, limit).format(), rule);
        }

        public Edit removePlanLimit(RuleId rule, String plan) {
            return put(SysConfigFields.plan(checkedId(rule), present(plan, "plan")), null, rule);
        }

        public Edit exception(RuleId rule, String identity, String limit, Instant until) {
            String field = SysConfigFields.exception(declaredId(rule), identity(identity));
            LimitSpec rate = rate(field, limit);
            if (until == null || !until.isAfter(clock.instant())) {
                throw new InvalidValueException("ratelimit.config.exception.ended", String.valueOf(until))
                        .about(LimitSpec.abbreviate(field));
            }
            if (!hash().containsKey(field) && !writes.containsKey(field)
                    && exceptions() >= SysConfigParser.MAX_EXCEPTIONS) {
                throw new InvalidValueException("ratelimit.config.exception.tooMany", SysConfigParser.MAX_EXCEPTIONS)
                        .about(LimitSpec.abbreviate(field));
            }
            return put(field, new IdentityException(rate.count(), rate.windowSeconds(), until).format(), rule);
        }

        public Edit removeException(RuleId rule, String identity) {
            return put(SysConfigFields.exception(checkedId(rule), present(identity, "identity")), null, rule);
        }

        public Edit deny(DenyList.Kind kind, String target, @Nullable Instant until, String note) {
            String canonical = parsed(kind.rule(), () -> kind == DenyList.Kind.IP ? CidrBlock.parse(target).canonical()
                    : identity(target == null ? null : target.strip()));
            String field = SysConfigFields.deny(kind, canonical);
            Instant now = clock.instant();
            if (until != null && !until.isAfter(now)) {
                throw new InvalidValueException("ratelimit.config.deny.ended", until).about(LimitSpec.abbreviate(field));
            }
            String checkedNote = note == null ? "" : note.strip();
            if (checkedNote.length() > DenyList.MAX_NOTE_LENGTH || checkedNote.chars().anyMatch(c -> c < ' ' || c == 0x7f)) {
                throw new InvalidValueException("ratelimit.config.deny.note", DenyList.MAX_NOTE_LENGTH)
                        .about(LimitSpec.abbreviate(field));
            }
            Map<String, DenyList.Entry> denied = denied();
            if (!denied.containsKey(field) && denied.values().stream().filter(entry -> entry.inForceAt(now)).count()
                    >= DenyList.MAX_ENTRIES) {
                throw new InvalidValueException("ratelimit.config.deny.tooMany", DenyList.MAX_ENTRIES)
                        .about(LimitSpec.abbreviate(field));
            }
            put(field, new DenyList.Entry(kind, canonical, until, checkedNote).value());
            denied.forEach((other, entry) -> {
                if (!entry.inForceAt(now) && !other.equals(field)) {
                    put(other, null);
                }
            });
            return this;
        }

        public Edit undeny(DenyList.Kind kind, String target) {
            return put(SysConfigFields.deny(kind, present(target, "identity")), null);
        }


        /** What {@link #apply()} would change in the hash as it is now: every field, changed or not. */
        public List<SysConfigChange> preview() {
            Map<String, String> current = hash();
            List<SysConfigChange> changes = new ArrayList<>(writes.size());
            writes.forEach((field, value) -> changes.add(new SysConfigChange(field, current.get(field), value)));
            return changes;
        }

        /** The hash's version the checks read, for {@link #applyIf}. */
        public long version() {
            return SysConfigParser.version(hash());
        }

        /** Writes every change in one atomic step and announces it; the changes in the order they were made. */
        public List<SysConfigChange> apply() {
            writeCheck.accept(checked());
            return write(null);
        }

        /**
         * Writes every change as {@link #apply()} does, only if the hash is still at {@code version} (what a
         * preview showed was read there); otherwise writes nothing.
         *
         * @throws InvalidValueException when the hash has changed since
         */
        public List<SysConfigChange> applyIf(long version) {
            writeCheck.accept(checked());
            return write(version);
        }

        /** The write, made again once when Redis did not hold the hash and this app put it back. */
        private List<SysConfigChange> write(@Nullable Long version) {
            try {
                return repository.write(writes, version);
            } catch (InvalidValueException e) {
                if (!SysConfigRepository.HASH_MISSING.equals(e.key())) {
                    throw e;
                }
                putBack.run();
                return repository.write(writes, version);
            }
        }

        /** Every field this edit writes, with the rule it belongs to, as the editor's check is shown them. */
        public List<SysConfigWrite> writes() {
            List<SysConfigWrite> all = new ArrayList<>(writes.size());
            writes.forEach((field, value) -> all.add(new SysConfigWrite(field, value, rules.get(field))));
            return all;
        }

        private List<SysConfigWrite> checked() {
            return Collections.unmodifiableList(writes());
        }

        private SysConfigChange applyOne() {
            return apply().get(0);
        }

        /** A field every app shares. */
        private Edit put(String field, @Nullable String value) {
            return put(field, value, null);
        }

        private Edit put(String field, @Nullable String value, @Nullable RuleId rule) {
            if (exceptions >= 0 && field.contains(EXCEPTION_INFIX)) {
                exceptions += (value != null ? 1 : 0) - (holds(field) ? 1 : 0);
            }
            writes.put(field, value);
            if (rule == null) {
                rules.remove(field);
            } else {
                rules.put(field, rule);
            }
            return this;
        }

        /** The hash as Redis holds it, read once; put back first when Redis lost it, so that checks read what is in force. */
        private Map<String, String> hash() {
            if (hash == null) {
                hash = repository.readAll();
                if (hash.isEmpty()) {
                    putBack.run();
                    hash = repository.readAll();
                }
            }
            return hash;
        }

        /** A knob's canonical value in force: this edit's, else the hash's when it parses, else its declaration, else none. */
        private @Nullable String inForce(RuleId rule, Knob knob) {
            String field = knob.field(rule);
            for (String value : new String[] {writes.get(field), hash().get(field), hash().get(SysConfigFields.declared(field))}) {
                try {
                    if (value != null) {
                        return knob.canonical(value);
                    }
                } catch (IllegalArgumentException e) {
                    // garbage: the next source
                }
            }
            return null;
        }

        /** The deny-list entries of the hash with this edit's writes, ended or not, by field; those that do not parse left out. */
        private Map<String, DenyList.Entry> denied() {
            Map<String, DenyList.Entry> denied = new HashMap<>();
            written().forEach((field, value) -> {
                DenyList.Kind kind = SysConfigFields.denyKind(field);
                if (kind != null) {
                    try {
                        denied.put(field, DenyList.Entry.parse(kind, SysConfigFields.denyTarget(kind, field), value));
                    } catch (IllegalArgumentException e) {
                        // not in force: the parser ignores it too, and an operator removes it by its field
                    }
                }
            });
            return denied;
        }

        /**
         * The exception fields there would be: counted once, then kept by {@link #put}, so that a document of
         * thousands of exceptions is checked in linear time.
         */
        private long exceptions() {
            if (exceptions < 0) {
                exceptions = written().keySet().stream().filter(name -> name.contains(EXCEPTION_INFIX)).count();
            }
            return exceptions;
        }

        /** The hash as this edit would leave it. */
        private Map<String, String> written() {
            Map<String, String> fields = new HashMap<>(hash());
            writes.forEach((field, value) -> {
                if (value == null) {
                    fields.remove(field);
                } else {
                    fields.put(field, value);
                }
            });
            return fields;
        }

        /**
         * A rule whose knobs, plans or exceptions are about to be set: an id fit for a field, of a rule that
         * something declares, so that no field is written for a rule that does not exist: an app declares it
         * (this one, or one whose {@code declared.*} knobs are in the hash), or it is a {@code dyn} rule (its field
         * is in the hash or in this edit), or a {@code dynuri} pattern's switch in a module.
         */
        private RuleId declaredId(RuleId rule) {
            checkedId(rule);
            String dynUri = SysConfigFields.dynUri(rule.rule());
            if (!declaredHere.test(rule) && !hash().containsKey(SysConfigFields.declared(Knob.CHECK.field(rule)))
                    && !holds(SysConfigFields.dyn(rule)) && !(rule.rule().startsWith("/") && holds(dynUri))) {
                throw new InvalidValueException("ratelimit.config.undeclaredRule", LimitSpec.abbreviate(rule.toString()));
            }
            return rule;
        }

        /** Whether the field is there once this edit is written. */
        private boolean holds(String field) {
            return writes.containsKey(field) ? writes.get(field) != null : hash().containsKey(field);
        }
    }

    /** A rule or endpoint id: printable, of sane length, and not itself a dynamic rule's field. */
    private static RuleId checkedId(RuleId id) {
        String text = present(id == null ? null : id.toString(), "ruleId");
        if (id.module().isEmpty() || id.rule().isEmpty() || text.length() > MAX_ID_LENGTH
                || text.chars().anyMatch(c -> c <= ' ' || c == 0x7f)) {
            throw new InvalidValueException("ratelimit.config.ruleId", LimitSpec.abbreviate(text), MAX_ID_LENGTH);
        }
        if (text.startsWith(DYN_PREFIX) || text.startsWith(DYNURI_PREFIX)) {
            throw new InvalidValueException("ratelimit.config.ruleId.prefix", LimitSpec.abbreviate(text));
        }
        if (SysConfigFields.denyKind(text + ".") != null) {
            throw new InvalidValueException("ratelimit.config.ruleId.deny", LimitSpec.abbreviate(text));
        }
        return id;
    }

    /** @param what the kind of value, as in the message key {@code ratelimit.config.required.<what>} */
    private static String present(@Nullable String value, String what) {
        if (value == null || value.isEmpty()) {
            throw new InvalidValueException("ratelimit.config.required." + what);
        }
        return value;
    }

    /** A plan's or an exception's {@code <count>/<interval>}: who is counted is the rule's own. */
    private static LimitSpec rate(String field, String value) {
        return parsed(field, () -> {
            LimitSpec parsed = LimitSpec.parse(value);
            return new LimitSpec(parsed.count(), parsed.windowSeconds());
        });
    }

    private static String planName(String plan) {
        String checked = present(plan, "plan");
        if (!checked.matches("[A-Za-z0-9_-]{1,64}")) {
            throw new InvalidValueException("ratelimit.config.planName", LimitSpec.abbreviate(checked));
        }
        return checked;
    }

    private static String identity(@Nullable String identity) {
        String checked = present(identity, "identity");
        if (checked.length() > MAX_ID_LENGTH || checked.chars().anyMatch(c -> c <= ' ' || c == 0x7f)) {
            throw new InvalidValueException("ratelimit.config.identity", LimitSpec.abbreviate(checked));
        }
        return checked;
    }

    /** The value {@code parse} makes, or its refusal said to be about {@code field}. */
    private static <T> T parsed(String field, Supplier<T> parse) {
        try {
            return parse.get();
        } catch (InvalidValueException e) {
            throw e.about(LimitSpec.abbreviate(field));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(LimitSpec.abbreviate(field) + ": " + e.getMessage(), e);
        }
    }
}
