package dev.ratelimit.interceptor.internal.config.copy;

import java.time.LocalDateTime;
import org.apache.ibatis.annotations.Insert;
import org.apache.ibatis.annotations.Param;
import org.apache.ibatis.annotations.Select;
import org.apache.ibatis.annotations.Update;

/** SQL of the durable copy {@code biz_sys_ratelimit_config} (DDL beside the log's in {@code sql/}). */
interface ConfigCopyMapper {

    @Select("SELECT config_version, digest, content FROM biz_sys_ratelimit_config WHERE config_key = #{key}")
    CopyRow find(@Param("key") String key);

    /** Replaces the copy when this one is newer, or as new but different; the rows changed (0 or 1). */
    @Update("UPDATE biz_sys_ratelimit_config SET config_version = #{version}, digest = #{digest}, "
            + "field_count = #{fields}, content = #{content}, kept_at = #{at} WHERE config_key = #{key} "
            + "AND (config_version < #{version} OR (config_version = #{version} AND digest <> #{digest}))")
    int replace(@Param("key") String key, @Param("version") long version, @Param("digest") String digest,
                @Param("fields") int fields, @Param("content") String content, @Param("at") LocalDateTime at);

    @Insert("INSERT INTO biz_sys_ratelimit_config (config_key, config_version, digest, field_count, content, kept_at) "
            + "VALUES (#{key}, #{version}, #{digest}, #{fields}, #{content}, #{at})")
    void insert(@Param("key") String key, @Param("version") long version, @Param("digest") String digest,
                @Param("fields") int fields, @Param("content") String content, @Param("at") LocalDateTime at);

    /** The copy as read back. */
    record CopyRow(long configVersion, String digest, String content) {
    }
}
