package dev.ratelimit.console.audit;

import java.util.List;

/** Where the console records every change. */
public interface AuditTrail {

    void record(AuditEntry entry);

    /** The newest entries first. */
    List<AuditEntry> recent(int limit);

    /** Whether entries are kept (and so can be shown). */
    boolean isPersistent();
}
