package dev.ratelimit.interceptor.config;

import dev.ratelimit.interceptor.InvalidValueException;
import dev.ratelimit.interceptor.RedisKeys;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.core.io.ClassPathResource;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * The {@code {p}:sysconfig} hash: reads it whole, adds missing defaults, and writes single fields
 * with an announcement on {@code {p}:config-changed} so every instance refreshes at once.
 */
public class SysConfigRepository {

    private static final RedisScript<String> WRITE_FIELD =
            RedisScript.of(new ClassPathResource("write_field.lua", SysConfigRepository.class), String.class);
    @SuppressWarnings("rawtypes")
    private static final RedisScript<List> MERGE_DECLARED =
            RedisScript.of(new ClassPathResource("merge_declared.lua", SysConfigRepository.class), List.class);

    private static final RedisScript<Long> RESET_COUNTER =
            RedisScript.of(new ClassPathResource("reset_counter.lua", SysConfigRepository.class), Long.class);

    private final StringRedisTemplate redis;
    private final RedisKeys keys;

    public SysConfigRepository(StringRedisTemplate redis, RedisKeys keys) {
        this.redis = redis;
        this.keys = keys;
    }

    /** Every field of the hash; empty when the hash does not exist. */
    public Map<String, String> readAll() {
        return redis.<String, String>opsForHash().entries(keys.sysconfig());
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
        List<?> kept = redis.execute(MERGE_DECLARED, List.of(keys.sysconfig()), arguments.toArray());
        Map<String, String> overrides = new LinkedHashMap<>();
        for (int i = 0; kept != null && i + 1 < kept.size(); i += 2) {
            overrides.put(String.valueOf(kept.get(i)), String.valueOf(kept.get(i + 1)));
        }
        return overrides;
    }

    /**
     * Sets one field and announces the change, atomically.
     *
     * @return the value it replaced, {@code null} if the field was absent
     */
    public String write(String field, String value) {
        return redis.execute(WRITE_FIELD, List.of(keys.sysconfig()), field, keys.configChangedChannel(), value);
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
        Long deleted = redis.execute(RESET_COUNTER, List.of(counterKey, RedisKeys.penalty(counterKey)),
                keys.configChangedChannel(),
                "reset " + counterKey);
        return deleted != null && deleted > 0;
    }

    /**
     * Removes one field and announces the change, atomically.
     *
     * @return the value it had, {@code null} if the field was absent
     */
    public String remove(String field) {
        return redis.execute(WRITE_FIELD, List.of(keys.sysconfig()), field, keys.configChangedChannel());
    }
}
