package dev.ratelimit.interceptor.config;

import dev.ratelimit.interceptor.InvalidValueException;
import dev.ratelimit.interceptor.store.RedisKeys;
import dev.ratelimit.interceptor.store.BackgroundCommands;
import dev.ratelimit.interceptor.store.LuaScript;
import io.lettuce.core.ScriptOutputType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The {@code {p}:sysconfig} hash: reads it whole, merges the declared defaults, writes fields with an
 * announcement on {@code {p}:config-changed} so every instance refreshes at once, and puts a copy back
 * when the hash was lost. With a {@link DurableConfigCopy}, a write returns only once the hash it made is
 * kept there too, so that a write acknowledged survives Redis losing the hash right after it.
 */
public class SysConfigRepository implements ConfigHash {

    /** What a reset of a counter announces, before the counter's key: instances counting in process reset theirs. */
    static final String RESET_ANNOUNCEMENT = "reset ";

    private static final LuaScript WRITE_FIELDS = LuaScript.load(SysConfigRepository.class, "write_fields.lua");
    private static final LuaScript RESTORE = LuaScript.load(SysConfigRepository.class, "restore_config.lua");
    private static final LuaScript MERGE_DECLARED = LuaScript.load(SysConfigRepository.class, "merge_declared.lua");
    private static final LuaScript RESET_COUNTER = LuaScript.load(SysConfigRepository.class, "reset_counter.lua");

    /** The message key of a write refused because Redis does not hold the hash. */
    static final String HASH_MISSING = "ratelimit.config.hashMissing";

    private final BackgroundCommands redis;
    private final RedisKeys keys;
    private final @Nullable DurableConfigCopy copy;

    public SysConfigRepository(BackgroundCommands redis, RedisKeys keys) {
        this(redis, keys, null);
    }

    /** @param copy where each write is kept before it returns; {@code null} for none */
    public SysConfigRepository(BackgroundCommands redis, RedisKeys keys, @Nullable DurableConfigCopy copy) {
        this.redis = redis;
        this.keys = keys;
        this.copy = copy;
    }

    /** Every field of the hash; empty when the hash does not exist. */
    @Override
    public Map<String, String> readAll() {
        return redis.sync().hgetall(keys.sysconfig());
    }

    /** The hash read now, as the limiter applies it: for a tool that shows the rules (the console). */
    public RuleSnapshot snapshot() {
        return SysConfigParser.parse(readAll(), Instant.now(), warning -> { });
    }

    /**
     * Merges what an app declares for its knobs with what is in force, in one atomic step: a knob that
     * is absent, or still holds the previous declaration, takes the new one; a value an operator set is
     * kept. Each declaration is stored as {@code declared.<knob>}; a change is announced.
     *
     * @return the operator values kept that differ from the new declaration, by knob
     */
    public Map<String, String> mergeDeclared(Map<String, String> declared) {
        List<String> arguments = new ArrayList<>(declared.size() * 2 + 1);
        arguments.add(keys.configChangedChannel());
        declared.forEach((knob, value) -> {
            arguments.add(knob);
            arguments.add(value);
        });
        List<?> kept = redis.script(MERGE_DECLARED, ScriptOutputType.MULTI, List.of(keys.sysconfig()), arguments);
        Map<String, String> overrides = new LinkedHashMap<>();
        for (int i = 0; kept != null && i + 1 < kept.size(); i += 2) {
            overrides.put(String.valueOf(kept.get(i)), String.valueOf(kept.get(i + 1)));
        }
        return overrides;
    }

    /**
     * Sets ({@code value}) or removes ({@code null}) each field, advances {@code config.version} when
     * anything changed, and announces it, in one atomic step. With a durable copy, the hash as this step
     * left it is then kept there before this returns; a database that does not answer fails nothing (the
     * copy's own warning, and every instance keeps it again at its next read).
     *
     * @param expectedVersion write only if the hash is still at this version; {@code null} to write whatever it is
     * @return each field with the value it replaced ({@code null}: absent) and its new one, in the order given
     * @throws InvalidValueException when the hash is no longer at {@code expectedVersion}, or is not in Redis (lost,
     *                               and about to be put back by the instances; or no app has started yet): nothing
     *                               was written
     */
    public List<SysConfigChange> write(Map<String, String> writes, @Nullable Long expectedVersion) {
        List<String> arguments = new ArrayList<>(writes.size() * 3 + 3);
        arguments.add(keys.configChangedChannel());
        arguments.add(expectedVersion == null ? "" : Long.toString(expectedVersion));
        arguments.add(copy == null ? "" : "1");
        writes.forEach((field, value) -> {
            arguments.add(field);
            arguments.add(value == null ? "d" : "s");
            arguments.add(value == null ? "" : value);
        });
        List<?> reply = redis.script(WRITE_FIELDS, ScriptOutputType.MULTI, List.of(keys.sysconfig()), arguments);
        if (reply != null && reply.size() == 1 && Long.valueOf(-1).equals(reply.get(0))) {
            throw new InvalidValueException(HASH_MISSING);
        }
        int changesEnd = 1 + 2 * writes.size();
        if (reply == null || reply.size() < changesEnd) {
            throw new InvalidValueException("ratelimit.config.changedSince", expectedVersion,
                    reply == null || reply.isEmpty() ? "?" : reply.get(0));
        }
        if (copy != null && reply.size() > changesEnd) {
            Map<String, String> written = new LinkedHashMap<>();
            for (int i = changesEnd; i + 1 < reply.size(); i += 2) {
                written.put(String.valueOf(reply.get(i)), String.valueOf(reply.get(i + 1)));
            }
            copy.keep(((Number) reply.get(0)).longValue(), written);
        }
        List<SysConfigChange> changes = new ArrayList<>(writes.size());
        int i = 1;
        for (Map.Entry<String, String> write : writes.entrySet()) {
            boolean existed = Long.valueOf(1).equals(reply.get(i));
            changes.add(new SysConfigChange(write.getKey(), existed ? String.valueOf(reply.get(i + 1)) : null,
                    write.getValue()));
            i += 2;
        }
        return changes;
    }

    /**
     * Puts {@code copy} back as the hash, announced, only where the hash is absent or older than
     * {@code version}: the newest copy wins, whichever instance (or database) holds it.
     *
     * @return whether the copy was put back
     */
    @Override
    public boolean restore(long version, Map<String, String> copy) {
        List<String> arguments = new ArrayList<>(copy.size() * 2 + 2);
        arguments.add(keys.configChangedChannel());
        arguments.add(Long.toString(version));
        copy.forEach((field, value) -> {
            if (!field.equals(SysConfigFields.VERSION)) {
                arguments.add(field);
                arguments.add(value);
            }
        });
        return Long.valueOf(1).equals(redis.script(RESTORE, ScriptOutputType.INTEGER, List.of(keys.sysconfig()), arguments));
    }

    /** The hash's {@code config.version} alone, {@code null} when the hash does not exist: cheap to ask often. */
    @Override
    public @Nullable Long version() {
        List<Object> replies = redis.pipelined(commands -> List.of(commands.exists(keys.sysconfig()),
                commands.hget(keys.sysconfig(), SysConfigFields.VERSION)));
        if (!Long.valueOf(1).equals(replies.get(0))) {
            return null;
        }
        Object version = replies.get(1);
        try {
            return version == null ? 0L : Long.parseLong(version.toString());
        } catch (NumberFormatException e) {
            return 0L;
        }
    }

    /**
     * Deletes one counter and announces it, atomically, so that every instance forgets what it
     * remembered of the counter's denials.
     *
     * @param counterKey a key under {@code {p}:counter:}
     * @return whether the counter existed
     */
    public boolean resetCounter(String counterKey) {
        if (!counterKey.startsWith(keys.counterPrefix())) {
            throw new InvalidValueException("ratelimit.config.counterKey", LimitSpec.abbreviate(counterKey),
                    keys.counterPrefix());
        }
        Long deleted = redis.script(RESET_COUNTER, ScriptOutputType.INTEGER,
                List.of(counterKey, RedisKeys.penalty(counterKey)),
                List.of(keys.configChangedChannel(), RESET_ANNOUNCEMENT + counterKey));
        return deleted != null && deleted > 0;
    }
}
