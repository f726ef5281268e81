package dev.ratelimit.console.audit;

import dev.ratelimit.interceptor.internal.log.database.LikePattern;
import dev.ratelimit.interceptor.internal.log.database.LogDatabase;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.ibatis.session.SqlSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The audit trail in the table beside the interception log, through the log's own MyBatis set-up.
 * Times are stored as wall-clock time of {@code ratelimit.log.time-zone}, like the log's. A database
 * that does not answer must not stop an operator from changing a rule: the entry then goes to the
 * application log instead, with a warning.
 */
public class DatabaseAuditTrail implements AuditTrail {

    private static final Logger log = LoggerFactory.getLogger(DatabaseAuditTrail.class);
    static final int MAX_TEXT = 255;
    static final int MAX_FIELD = 600;
    static final int MAX_OPERATOR = 128;

    private final LogDatabase database;
    private final ZoneId zone;
    private final LoggedAuditTrail fallback = new LoggedAuditTrail();

    public DatabaseAuditTrail(LogDatabase database, ZoneId zone) {
        database.addMapper(AuditMapper.class);
        this.database = database;
        this.zone = zone;
    }

    @Override
    public void record(AuditEntry entry) {
        try (SqlSession session = database.openSession(true)) {
            session.getMapper(AuditMapper.class).insert(LocalDateTime.ofInstant(entry.at(), zone),
                    cut(entry.operator(), MAX_OPERATOR), cut(entry.field(), MAX_FIELD), cut(entry.oldValue(), MAX_TEXT),
                    cut(entry.newValue(), MAX_TEXT));
        } catch (RuntimeException e) {
            log.warn("Cannot write the audit trail to the database ({}); logging the change instead", e.toString());
            fallback.record(entry);
        }
    }

    @Override
    public List<AuditEntry> recent(int limit) {
        try (SqlSession session = database.openSession(true)) {
            return session.getMapper(AuditMapper.class).newest(limit).stream().map(this::entry).toList();
        }
    }

    @Override
    public Map<String, AuditEntry> latest(Collection<String> fields) {
        Map<String, AuditEntry> latest = new HashMap<>();
        if (fields.isEmpty()) {
            return latest;
        }
        try (SqlSession session = database.openSession(true)) {
            for (AuditMapper.AuditRow row : session.getMapper(AuditMapper.class).newestAbout(fields, fields.size() * 20)) {
                latest.putIfAbsent(row.field(), entry(row));
            }
        } catch (RuntimeException e) {
            log.warn("Cannot read the audit trail from the database: {}", e.toString());
        }
        return latest;
    }

    @Override
    public List<AuditEntry> history(Collection<String> fields, String fieldPrefix, int limit) {
        try (SqlSession session = database.openSession(true)) {
            return session.getMapper(AuditMapper.class)
                    .newestMatching(fields.isEmpty() ? List.of("") : fields, LikePattern.startsWith(fieldPrefix), limit).stream()
                    .map(this::entry).toList();
        }
    }

    @Override
    public boolean isPersistent() {
        return true;
    }

    private AuditEntry entry(AuditMapper.AuditRow row) {
        return new AuditEntry(row.createdAt().atZone(zone).toInstant(), row.operator(), row.field(), row.oldValue(),
                row.newValue());
    }

    private static String cut(String value, int max) {
        return value == null || value.length() <= max ? value : value.substring(0, max);
    }
}
