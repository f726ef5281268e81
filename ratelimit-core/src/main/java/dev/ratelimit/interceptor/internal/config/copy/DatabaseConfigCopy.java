package dev.ratelimit.interceptor.internal.config.copy;

import dev.ratelimit.interceptor.config.DurableConfigCopy;
import dev.ratelimit.interceptor.internal.log.database.LogDatabase;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.ibatis.session.SqlSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.representer.Representer;

/**
 * The durable copy of the config hash in the interception log's database ({@code biz_sys_ratelimit_config}),
 * through the log's own MyBatis set-up: one row per hash, its fields as sorted YAML. A copy replaces the
 * one kept only when it is newer, or as new and different (a value set by hand in Redis advances no
 * version), in one conditional statement, so instances keeping the same copy at once never undo each
 * other. A database that does not answer never fails a refresh: the copy is kept by the next read.
 */
public class DatabaseConfigCopy implements DurableConfigCopy {

    private static final Logger log = LoggerFactory.getLogger(DatabaseConfigCopy.class);

    private final LogDatabase database;
    private final String key;
    private final Clock clock;
    private volatile boolean failing;

    /** @param key the config hash's Redis key: one copy per hash, so that several key prefixes share the table */
    public DatabaseConfigCopy(LogDatabase database, String key, Clock clock) {
        database.addMapper(ConfigCopyMapper.class);
        this.database = database;
        this.key = key;
        this.clock = clock;
    }

    @Override
    public Optional<Copy> load() {
        try (SqlSession session = database.openSession(true)) {
            ConfigCopyMapper.CopyRow row = session.getMapper(ConfigCopyMapper.class).find(key);
            recovered();
            return Optional.ofNullable(row).map(DatabaseConfigCopy::copy);
        } catch (RuntimeException e) {
            failed("read", e);
            return Optional.empty();
        }
    }

    @Override
    public Optional<Copy> keep(long version, Map<String, String> fields) {
        String content = yaml().dump(new TreeMap<>(fields));
        String digest = sha256(content);
        LocalDateTime now = LocalDateTime.now(clock.withZone(ZoneOffset.UTC));
        try (SqlSession session = database.openSession(true)) {
            ConfigCopyMapper mapper = session.getMapper(ConfigCopyMapper.class);
            ConfigCopyMapper.CopyRow kept = mapper.find(key);
            if (kept == null) {
                insertOrReplace(mapper, version, digest, fields.size(), content, now);
            } else if (kept.configVersion() > version) {
                recovered();
                return Optional.of(copy(kept));
            } else if (kept.configVersion() < version || !kept.digest().equals(digest)) {
                mapper.replace(key, version, digest, fields.size(), content, now);
            }
            recovered();
            return Optional.empty();
        } catch (RuntimeException e) {
            failed("write", e);
            return Optional.empty();
        }
    }

    /** Another instance may insert the first copy at the same moment: then this one replaces it if newer. */
    private void insertOrReplace(ConfigCopyMapper mapper, long version, String digest, int fields, String content,
                                 LocalDateTime now) {
        try {
            mapper.insert(key, version, digest, fields, content, now);
        } catch (RuntimeException duplicate) {
            if (mapper.find(key) == null) {
                throw duplicate;
            }
            mapper.replace(key, version, digest, fields, content, now);
        }
    }

    private static Copy copy(ConfigCopyMapper.CopyRow row) {
        Map<?, ?> read = yaml().load(row.content());
        Map<String, String> fields = new LinkedHashMap<>();
        if (read != null) {
            read.forEach((field, value) -> fields.put(String.valueOf(field), String.valueOf(value)));
        }
        return new Copy(row.configVersion(), fields);
    }

    /** Every scalar a string, as the hash holds them: {@code 1} stays {@code "1"}, {@code on} stays {@code "on"}. */
    private static Yaml yaml() {
        DumperOptions dump = new DumperOptions();
        dump.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
        dump.setDefaultScalarStyle(DumperOptions.ScalarStyle.DOUBLE_QUOTED);
        dump.setWidth(Integer.MAX_VALUE);
        LoaderOptions load = new LoaderOptions();
        load.setCodePointLimit(64 * 1024 * 1024);
        return new Yaml(new SafeConstructor(load), new Representer(dump), dump, load);
    }

    private static String sha256(String content) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(content.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java has SHA-256", e);
        }
    }

    private void failed(String what, RuntimeException e) {
        if (!failing) {
            failing = true;
            log.warn("Cannot {} the durable copy of the rate limit config in the database; Redis and the instances' "
                    + "snapshots hold it meanwhile: {}", what, e.toString());
        }
    }

    private void recovered() {
        if (failing) {
            failing = false;
            log.info("The durable copy of the rate limit config is kept in the database again");
        }
    }
}
