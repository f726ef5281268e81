package dev.ratelimit.console.audit;

import dev.ratelimit.interceptor.config.SysConfigChange;
import dev.ratelimit.interceptor.config.SysConfigEditor;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * Every console write goes through here: the editor validates, writes and announces the change (so
 * every instance applies it at once), and the audit trail records who changed what from what.
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
        List<SysConfigChange> changes = edit.apply(editor);
        for (SysConfigChange change : changes) {
            if (!Objects.equals(change.oldValue(), change.newValue())) {
                trail.record(new AuditEntry(clock.instant(), operator, change.field(), change.oldValue(),
                        change.newValue()));
            }
        }
        return changes;
    }
}
