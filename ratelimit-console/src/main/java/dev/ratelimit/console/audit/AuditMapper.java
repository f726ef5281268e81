package dev.ratelimit.console.audit;

import java.time.LocalDateTime;
import java.util.Collection;
import java.util.List;
import org.apache.ibatis.annotations.Insert;
import org.apache.ibatis.annotations.Param;
import org.apache.ibatis.annotations.Select;

/** SQL of the audit table {@code biz_sys_ratelimit_audit} (DDL beside the log's in {@code sql/}). */
public interface AuditMapper {

    @Insert("INSERT INTO biz_sys_ratelimit_audit (created_at, operator, field, old_value, new_value) "
            + "VALUES (#{at}, #{operator}, #{field}, #{oldValue}, #{newValue})")
    void insert(@Param("at") LocalDateTime at, @Param("operator") String operator, @Param("field") String field,
                @Param("oldValue") String oldValue, @Param("newValue") String newValue);

    @Select("SELECT created_at, operator, field, old_value, new_value FROM biz_sys_ratelimit_audit "
            + "ORDER BY created_at DESC, id DESC LIMIT #{limit}")
    List<AuditRow> newest(@Param("limit") int limit);

    /** The newest rows about any of {@code fields}. */
    @Select("<script>SELECT created_at, operator, field, old_value, new_value FROM biz_sys_ratelimit_audit "
            + "WHERE field IN <foreach item='field' collection='fields' open='(' separator=',' close=')'>#{field}</foreach> "
            + "ORDER BY created_at DESC, id DESC LIMIT #{limit}</script>")
    List<AuditRow> newestAbout(@Param("fields") Collection<String> fields, @Param("limit") int limit);

    /** The newest rows about any of {@code fields} or a field that matches {@code pattern} (LIKE, escape {@code !}). */
    @Select("<script>SELECT created_at, operator, field, old_value, new_value FROM biz_sys_ratelimit_audit "
            + "WHERE field LIKE #{pattern} ESCAPE '!' OR field IN "
            + "<foreach item='field' collection='fields' open='(' separator=',' close=')'>#{field}</foreach> "
            + "ORDER BY created_at DESC, id DESC LIMIT #{limit}</script>")
    List<AuditRow> newestMatching(@Param("fields") Collection<String> fields, @Param("pattern") String pattern,
                                  @Param("limit") int limit);

    /** A row as read back; the time is the wall-clock time of the log's zone. */
    record AuditRow(LocalDateTime createdAt, String operator, String field, String oldValue, String newValue) {
    }
}
