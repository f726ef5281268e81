package dev.ratelimit.apiindex;

import dev.ratelimit.interceptor.RedisKeys;
import dev.ratelimit.interceptor.rule.Endpoint;
import dev.ratelimit.interceptor.rule.RuleId;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.io.ClassPathResource;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The API index in Redis: {@code {p}:{apiindex}:{module}} (field {@code <module>.<rule>}, value an
 * {@link ApiIndexEntry} as JSON) and the set {@code {p}:{apiindex}:modules}. A module's index is
 * replaced whole: written to a staging key of its own, then renamed onto the index in one atomic
 * step, so readers never see it half-written or empty.
 */
public class ApiIndexRepository {

    private static final Logger log = LoggerFactory.getLogger(ApiIndexRepository.class);
    private static final RedisScript<Long> REPLACE_INDEX =
            RedisScript.of(new ClassPathResource("replace_index.lua", ApiIndexRepository.class), Long.class);
    /** Long enough for any write to finish, short enough that a writer dying midway leaves no lasting garbage. */
    private static final Duration STAGING_TTL = Duration.ofMinutes(5);

    // The app's own ObjectMapper may be customised (naming strategy, ...); the index format must not follow it.
    private final JsonMapper json = JsonMapper.builder()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();
    private final StringRedisTemplate redis;
    private final RedisKeys keys;

    public ApiIndexRepository(StringRedisTemplate redis, RedisKeys keys) {
        this.redis = redis;
        this.keys = keys;
    }

    /** Replaces the index of {@code module} with {@code entries}, keyed by {@code <module>.<rule>}. */
    public void replace(String module, Map<String, ApiIndexEntry> entries) {
        String staging = keys.apiIndexStaging(module, UUID.randomUUID().toString());
        if (!entries.isEmpty()) {
            Map<byte[], byte[]> fields = new HashMap<>();
            entries.forEach((id, entry) -> fields.put(bytes(id), json.writeValueAsBytes(entry)));
            byte[] stagingKey = bytes(staging);
            redis.executePipelined((RedisCallback<Object>) connection -> {
                connection.hashCommands().hMSet(stagingKey, fields);
                connection.keyCommands().expire(stagingKey, STAGING_TTL.toSeconds());
                return null;
            });
        }
        redis.execute(REPLACE_INDEX, List.of(staging, keys.apiIndex(module), keys.apiIndexModules()), module,
                Integer.toString(entries.size()));
    }

    /** Whether the index of {@code module} is in Redis, listed among the modules. */
    public boolean isReported(String module) {
        List<Object> replies = redis.executePipelined((RedisCallback<Object>) connection -> {
            connection.keyCommands().exists(bytes(keys.apiIndex(module)));
            connection.setCommands().sIsMember(bytes(keys.apiIndexModules()), bytes(module));
            return null;
        });
        return Boolean.TRUE.equals(replies.get(0)) && Boolean.TRUE.equals(replies.get(1));
    }

    /** The modules that reported an index, sorted. */
    public SortedSet<String> modules() {
        return new TreeSet<>(redis.opsForSet().members(keys.apiIndexModules()));
    }

    /** The index of one module by {@code <module>.<rule>}, sorted; a value that does not parse is skipped, with a warning. */
    public SortedMap<String, ApiIndexEntry> entries(String module) {
        SortedMap<String, ApiIndexEntry> entries = new TreeMap<>();
        redis.<String, String>opsForHash().entries(keys.apiIndex(module)).forEach((id, value) -> {
            try {
                entries.put(id, json.readValue(value, ApiIndexEntry.class));
            } catch (JacksonException e) {
                log.warn("Skipping unreadable API index entry {} of module {}: {}", id, module, e.getOriginalMessage());
            }
        });
        return entries;
    }

    /**
     * The endpoints of every module that reported an index, as the apps that reported them see them: what
     * the console builds its {@code RulesInForce} from. An entry that does not read is skipped, with a warning.
     */
    public List<Endpoint> endpoints() {
        List<Endpoint> endpoints = new ArrayList<>();
        for (String module : modules()) {
            endpoints.addAll(endpoints(module));
        }
        return endpoints;
    }

    /** The endpoints of one module's index; an entry that does not read is skipped, with a warning. */
    public List<Endpoint> endpoints(String module) {
        List<Endpoint> endpoints = new ArrayList<>();
        entries(module).forEach((id, entry) -> {
            RuleId endpoint = RuleId.parse(id, List.of(module));
            try {
                if (endpoint != null) {
                    endpoints.add(entry.toEndpoint(endpoint));
                }
            } catch (IllegalArgumentException e) {
                log.warn("Skipping unreadable API index entry {} of module {}: {}", id, module, e.getMessage());
            }
        });
        return endpoints;
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
