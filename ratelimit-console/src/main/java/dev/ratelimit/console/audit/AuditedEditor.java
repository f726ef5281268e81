package dev.ratelimit.console.audit;

import dev.ratelimit.interceptor.config.RulesInForce;
import dev.ratelimit.interceptor.config.SysConfigChange;
import dev.ratelimit.interceptor.config.SysConfigEditor;
import dev.ratelimit.interceptor.config.document.RulesImport;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * Every console write goes through here, an edit or an imported rules document: the editor validates,
 * writes and announces the change (so every instance applies it at once), and the audit trail records who
 * changed what from what.
 */
public class AuditedEditor {

    private final SysConfigEditor editor;
    private final AuditTrail trail;
    private final Clock clock;

    public AuditedEditor(SysConfigEditor editor, AuditTrail trail, Clock clock) {
        this.editor = editor;
        this.trail = trail;
        this.clock = clock;
    }

    /**
     * Applies one edit for {@code operator}.
     *
     * @throws IllegalArgumentException with a message fit for the operator when the value is refused
     */
    public SysConfigChange apply(String operator, Function<SysConfigEditor, SysConfigChange> edit) {
        return applyAll(operator, editor -> List.of(edit.apply(editor))).get(0);
    }

    /** Applies an edit of several fields for {@code operator}, recording each that changed. */
    public List<SysConfigChange> applyAll(String operator, Function<SysConfigEditor, List<SysConfigChange>> edit) {
        return recorded(operator, edit.apply(editor));
    }

    /** What a rules document would change, checked by the editor against {@code rules}. */
    public RulesImport.Preview preview(RulesInForce rules, String document, RulesImport.Mode mode) {
        return RulesImport.preview(rules, editor, document, mode);
    }

    /**
     * Writes what {@code preview} showed {@code operator}, if the hash is still at {@code version} (what the
     * preview read), recording each field that changed.
     */
    public List<SysConfigChange> apply(String operator, RulesImport.Preview preview, long version) {
        return recorded(operator, preview.applyIf(version));
    }

    private List<SysConfigChange> recorded(String operator, List<SysConfigChange> changes) {
        for (SysConfigChange change : changes) {
            if (!Objects.equals(change.oldValue(), change.newValue())) {
                trail.record(new AuditEntry(clock.instant(), operator, change.field(), change.oldValue(),
                        change.newValue()));
            }
        }
        return changes;
    }
}
