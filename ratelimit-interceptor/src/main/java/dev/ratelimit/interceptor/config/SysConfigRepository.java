package dev.ratelimit.interceptor.config;

import dev.ratelimit.interceptor.RedisKeys;
import java.util.Map;
import org.springframework.data.redis.core.StringRedisTemplate;

/** Reads the {@code {p}:sysconfig} hash. */
public class SysConfigRepository {

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
}
