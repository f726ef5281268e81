package dev.ratelimit.console.audit;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The audit trail of an app without a database: every change goes to the application log (logger
 * {@code ratelimit.audit}) and the audit page says that nothing is kept.
 */
public class LoggedAuditTrail implements AuditTrail {

    private static final Logger log = LoggerFactory.getLogger("ratelimit.audit");

    @Override
    public void record(AuditEntry entry) {
        if (entry.wasRefused()) {
            log.warn("{} was refused {}{}: their role does not allow it", entry.operator(), entry.subject(),
                    entry.newValue() == null ? "" : " = " + entry.newValue());
        } else {
            log.info("{} changed {} from {} to {}", entry.operator(), entry.field(), entry.oldValue(), entry.newValue());
        }
    }

    @Override
    public List<AuditEntry> recent(int limit) {
        return List.of();
    }

    @Override
    public Map<String, AuditEntry> latest(Collection<String> fields) {
        return Map.of();
    }

    @Override
    public List<AuditEntry> history(Collection<String> fields, String fieldPrefix, int limit) {
        return List.of();
    }

    @Override
    public boolean isPersistent() {
        return false;
    }
}
