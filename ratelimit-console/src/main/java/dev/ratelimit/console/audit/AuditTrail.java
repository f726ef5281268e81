package dev.ratelimit.console.audit;

import java.util.Collection;
import java.util.List;
import java.util.Map;

/** Where the console records every change. */
public interface AuditTrail {

    void record(AuditEntry entry);

    /** The newest entries first. */
    List<AuditEntry> recent(int limit);

    /** The newest entry about each of {@code fields} that has one. */
    Map<String, AuditEntry> latest(Collection<String> fields);

    /** The newest entries about any of {@code fields} or about a field starting with {@code fieldPrefix}, newest first. */
    List<AuditEntry> history(Collection<String> fields, String fieldPrefix, int limit);

    /** Whether entries are kept (and so can be shown). */
    boolean isPersistent();
}
