package dev.ratelimit.interceptor.config;

import dev.ratelimit.interceptor.RedisKeys;
import java.util.ArrayList;
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
    private static final RedisScript<Long> PUT_ABSENT =
            RedisScript.of(new ClassPathResource("put_absent.lua", SysConfigRepository.class), Long.class);

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

    /** Adds each field the hash lacks ({@code HSETNX}), all in one atomic step; a field that exists keeps its value. */
    public void putIfAbsent(Map<String, String> fields) {
        List<String> pairs = new ArrayList<>(fields.size() * 2);
        fields.forEach((field, value) -> {
            pairs.add(field);
            pairs.add(value);
        });
        redis.execute(PUT_ABSENT, List.of(keys.sysconfig()), pairs.toArray());
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
            throw new IllegalArgumentException("'" + LimitSpec.abbreviate(counterKey) + "' is not a counter key: "
                    + "counter keys start with " + keys.counterPrefix());
        }
        Long deleted = redis.execute(RESET_COUNTER, List.of(counterKey), keys.configChangedChannel(),
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
