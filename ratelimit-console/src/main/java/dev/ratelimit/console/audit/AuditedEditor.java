package dev.ratelimit.console.audit;

import dev.ratelimit.console.access.ChangeRefusedException;
import dev.ratelimit.console.access.ConsoleOperator;
import dev.ratelimit.interceptor.config.RulesInForce;
import dev.ratelimit.interceptor.config.SysConfigChange;
import dev.ratelimit.interceptor.config.SysConfigEditor;
import dev.ratelimit.interceptor.config.document.RulesImport;
import java.time.Clock;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Every console write goes through here, an edit, an imported rules document or an unblock: the
 * operator's role and modules are checked against every field it writes (a refusal writes nothing and
 * is recorded), the editor validates, writes and announces the change (so every instance applies it at
 * once), and the audit trail records who changed what from what.
 */
public class AuditedEditor {

    private final SysConfigEditor editor;
    private final AuditTrail trail;
    private final Supplier<Set<String>> modules;
    private final Clock clock;

    /** @param modules the modules known, against which a field's module is read */
    public AuditedEditor(SysConfigEditor editor, AuditTrail trail, Supplier<Set<String>> modules, Clock clock) {
        this.editor = editor;
        this.trail = trail;
        this.modules = modules;
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
        if (operator.mayChangeEveryModule()) {
            return editor; // may write any field: no need to read which modules there are
        }
        return editor.checkedBy(writes -> {
            if (!operator.mayWrite(writes.keySet(), modules.get())) {
                throw refused(operator, writes);
            }
        });
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
