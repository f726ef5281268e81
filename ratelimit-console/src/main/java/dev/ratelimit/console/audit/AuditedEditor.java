package dev.ratelimit.console.audit;

import dev.ratelimit.console.access.ChangeRefusedException;
import dev.ratelimit.console.access.ConsoleOperator;
import dev.ratelimit.interceptor.InvalidValueException;
import dev.ratelimit.interceptor.config.RulesInForce;
import dev.ratelimit.interceptor.config.SysConfigChange;
import dev.ratelimit.interceptor.config.SysConfigEditor;
import dev.ratelimit.interceptor.config.SysConfigWrite;
import dev.ratelimit.interceptor.config.document.RulesImport;
import dev.ratelimit.interceptor.rule.RuleId;
import java.time.Clock;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Every console write goes through here, an edit, an imported rules document or an unblock: the
 * operator's role and modules are checked against every field it writes (a refusal writes nothing and
 * is recorded), the editor validates, writes and announces the change (so every instance applies it at
 * once), and the audit trail records who changed what from what.
 *
 * <p>A field's module is the module of the rule the edit named, never one read back from the field's text
 * (module {@code demo}'s rule {@code A.b} and module {@code demo.A}'s rule {@code b} are both written
 * {@code demo.A.b}): the named rule must be the one the API index knows by that text. A field whose text
 * two modules' rules share is refused to everyone, and a field of no rule only to those who may change
 * what every app shares.
 */
public class AuditedEditor {

    private final SysConfigEditor editor;
    private final AuditTrail trail;
    private final Supplier<RulesInForce> known;
    private final Clock clock;

    /** @param known the rules and endpoints of every module, against which the rule of each field is checked */
    public AuditedEditor(SysConfigEditor editor, AuditTrail trail, Supplier<RulesInForce> known, Clock clock) {
        this.editor = editor;
        this.trail = trail;
        this.known = known;
        this.clock = clock;
    }

    /**
     * Applies one edit for {@code operator}.
     *
     * @throws IllegalArgumentException with a message fit for the operator when the value is refused
     * @throws ChangeRefusedException   when the operator may not write a field the edit writes
     */
    public SysConfigChange apply(ConsoleOperator operator, Function<SysConfigEditor, SysConfigChange> edit) {
        return applyAll(operator, editor -> List.of(edit.apply(editor))).get(0);
    }

    /** Applies an edit of several fields for {@code operator}, recording each that changed. */
    public List<SysConfigChange> applyAll(ConsoleOperator operator,
                                          Function<SysConfigEditor, List<SysConfigChange>> edit) {
        return recorded(operator, edit.apply(checked(operator)));
    }

    /** What a rules document would change, checked by the editor against {@code rules}; applied for {@code operator}. */
    public RulesImport.Preview preview(ConsoleOperator operator, RulesInForce rules, String document,
                                       RulesImport.Mode mode) {
        return RulesImport.preview(rules, checked(operator), document, mode);
    }

    /**
     * The fields of {@code preview} that {@code operator} may not write, by the module of each, as the
     * page says so instead of offering Apply; empty when they may apply it all. Nothing is recorded: the
     * preview writes nothing.
     */
    public List<String> notAllowed(ConsoleOperator operator, RulesImport.Preview preview) {
        if (!operator.mayChange()) {
            return List.of();
        }
        RulesInForce rules = known.get();
        return preview.writes().stream().filter(write -> !allowed(operator, write, rules))
                .map(SysConfigWrite::field).toList();
    }

    /**
     * Writes what {@code preview} showed {@code operator}, if the hash is still at {@code version} (what the
     * preview read), recording each field that changed.
     */
    public List<SysConfigChange> apply(ConsoleOperator operator, RulesImport.Preview preview, long version) {
        return recorded(operator, preview.applyIf(version));
    }

    /**
     * Runs a change of {@code module}'s state that is no config field (an unblock) for {@code operator},
     * and records it as {@code field} going from {@code oldValue} to {@code newValue}.
     *
     * @throws ChangeRefusedException when the operator may not change the module
     */
    public void change(ConsoleOperator operator, String module, String field, String oldValue, String newValue,
                       Runnable change) {
        if (!operator.mayChange(module)) {
            throw refused(operator, Collections.singletonMap(field, newValue));
        }
        change.run();
        trail.record(new AuditEntry(clock.instant(), operator.name(), field, oldValue, newValue));
    }

    /**
     * Refuses {@code operator} a change of {@code what} outright, recorded as refused: for a form of an
     * operator who may change nothing, whatever it posts.
     */
    public ChangeRefusedException refuse(ConsoleOperator operator, String what) {
        return refused(operator, Collections.singletonMap(what, null));
    }

    private SysConfigEditor checked(ConsoleOperator operator) {
        return editor.checkedBy(writes -> {
            if (writes.stream().allMatch(write -> write.rule() == null) && operator.mayChangeEveryModule()) {
                return; // only what every app shares, which they may change: no need to read the rules known
            }
            RulesInForce rules = known.get();
            if (!writes.stream().allMatch(write -> allowed(operator, write, rules))) {
                Map<String, String> refused = new LinkedHashMap<>();
                writes.forEach(write -> refused.put(write.field(), write.value()));
                throw refused(operator, refused);
            }
            writes.forEach(write -> requireOwnField(write, rules));
        });
    }

    /**
     * Whether {@code operator} may write the field: one every app shares only when they may change every
     * module; a rule's when they may change the module of every rule known by the field's text (the one the
     * edit named, and any other module's spelt the same).
     */
    private static boolean allowed(ConsoleOperator operator, SysConfigWrite write, RulesInForce rules) {
        if (write.rule() == null) {
            return operator.mayChangeEveryModule();
        }
        List<RuleId> owners = rules.speltAs(write.rule());
        return (owners.isEmpty() ? List.of(write.rule()) : owners).stream()
                .allMatch(owner -> operator.mayChange(owner.module()));
    }

    /**
     * Refuses a field that is not the named rule's own: another rule is known by its text (the edit split it
     * at another module), two are (they share every field), or no rule is and the write sets it.
     */
    private static void requireOwnField(SysConfigWrite write, RulesInForce rules) {
        if (write.rule() == null) {
            return;
        }
        List<RuleId> owners = rules.speltAs(write.rule());
        if (owners.size() > 1) {
            throw new InvalidValueException("ratelimit.config.ambiguousRule", write.rule(), owners.get(0).module(),
                    owners.get(1).module());
        }
        if (owners.isEmpty() ? write.value() != null : !owners.get(0).equals(write.rule())) {
            throw new InvalidValueException("ratelimit.config.unknownRule", write.rule());
        }
    }

    /** Records every field of a refused change, so that the attempt shows in the trail. */
    private ChangeRefusedException refused(ConsoleOperator operator, Map<String, String> writes) {
        writes.forEach((field, value) -> trail.record(AuditEntry.refused(clock.instant(), operator.name(), field, value)));
        return new ChangeRefusedException(operator, String.join(", ", writes.keySet()));
    }

    private List<SysConfigChange> recorded(ConsoleOperator operator, List<SysConfigChange> changes) {
        for (SysConfigChange change : changes) {
            if (!Objects.equals(change.oldValue(), change.newValue())) {
                trail.record(new AuditEntry(clock.instant(), operator.name(), change.field(), change.oldValue(),
                        change.newValue()));
            }
        }
        return changes;
    }
}
