package dev.ratelimit.interceptor.internal.instance;

import dev.ratelimit.interceptor.store.RedisKeys;
import dev.ratelimit.interceptor.store.BackgroundCommands;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The instances of every app that announced themselves ({@link InstanceHeartbeat}) and are still alive. */
public class InstanceDirectory {

    private final BackgroundCommands redis;
    private final RedisKeys keys;

    public InstanceDirectory(BackgroundCommands redis, RedisKeys keys) {
        this.redis = redis;
        this.keys = keys;
    }

    /** Every live instance, by module then id; one pipelined read. */
    public List<RunningInstance> all() {
        List<String> instanceKeys = redis.sync().zrange(keys.instances(), 0, -1);
        if (instanceKeys.isEmpty()) {
            return List.of();
        }
        List<Object> hashes = redis.pipelined(commands -> instanceKeys.stream().map(commands::hgetall).toList());
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
