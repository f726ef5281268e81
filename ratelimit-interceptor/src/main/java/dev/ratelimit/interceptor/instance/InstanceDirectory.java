package dev.ratelimit.interceptor.instance;

import dev.ratelimit.interceptor.RedisKeys;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

/** The instances of every app that announced themselves ({@link InstanceHeartbeat}) and are still alive. */
public class InstanceDirectory {

    private final StringRedisTemplate redis;
    private final RedisKeys keys;

    public InstanceDirectory(StringRedisTemplate redis, RedisKeys keys) {
        this.redis = redis;
        this.keys = keys;
    }

    /** Every live instance, by module then id; one pipelined read. */
    public List<RunningInstance> all() {
        Set<String> members = redis.opsForZSet().range(keys.instances(), 0, -1);
        if (members == null || members.isEmpty()) {
            return List.of();
        }
        List<String> instanceKeys = List.copyOf(members);
        List<Object> hashes = redis.executePipelined((RedisCallback<Object>) connection -> {
            instanceKeys.forEach(key -> connection.hashCommands().hGetAll(key.getBytes(StandardCharsets.UTF_8)));
            return null;
        });
        List<RunningInstance> instances = new ArrayList<>();
        for (Object hash : hashes) {
            RunningInstance instance = hash instanceof Map<?, ?> fields ? RunningInstance.fromHash(strings(fields)) : null;
            if (instance != null) {
                instances.add(instance);
            }
        }
        instances.sort(Comparator.comparing(RunningInstance::module).thenComparing(RunningInstance::id));
        return instances;
    }

    /** The live instances of one module. */
    public List<RunningInstance> of(String module) {
        return all().stream().filter(instance -> instance.module().equals(module)).toList();
    }

    private static Map<String, String> strings(Map<?, ?> fields) {
        Map<String, String> strings = new HashMap<>();
        fields.forEach((field, value) -> strings.put(String.valueOf(field), String.valueOf(value)));
        return strings;
    }
}
