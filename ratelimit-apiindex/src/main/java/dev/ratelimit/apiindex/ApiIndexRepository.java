package dev.ratelimit.apiindex;

import dev.ratelimit.interceptor.store.RedisKeys;
import dev.ratelimit.interceptor.rule.Endpoint;
import dev.ratelimit.interceptor.rule.RuleId;
import dev.ratelimit.interceptor.store.BackgroundCommands;
import dev.ratelimit.interceptor.store.LuaScript;
import io.lettuce.core.ScriptOutputType;
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
    private static final LuaScript REPLACE_INDEX = LuaScript.load(ApiIndexRepository.class, "replace_index.lua");
    /** Long enough for any write to finish, short enough that a writer dying midway leaves no lasting garbage. */
    private static final Duration STAGING_TTL = Duration.ofMinutes(5);

    // The app's own ObjectMapper may be customised (naming strategy, ...); the index format must not follow it.
    private final JsonMapper json = JsonMapper.builder()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();
    private final BackgroundCommands redis;
    private final RedisKeys keys;

    public ApiIndexRepository(BackgroundCommands redis, RedisKeys keys) {
        this.redis = redis;
        this.keys = keys;
    }

    /** Replaces the index of {@code module} with {@code entries}, keyed by {@code <module>.<rule>}. */
    public void replace(String module, Map<String, ApiIndexEntry> entries) {
        String staging = keys.apiIndexStaging(module, UUID.randomUUID().toString());
        if (!entries.isEmpty()) {
            Map<String, String> fields = new HashMap<>();
            entries.forEach((id, entry) -> fields.put(id, json.writeValueAsString(entry)));
            redis.pipelined(commands -> List.of(commands.hset(staging, fields),
                    commands.expire(staging, STAGING_TTL.toSeconds())));
        }
        redis.script(REPLACE_INDEX, ScriptOutputType.INTEGER,
                List.of(staging, keys.apiIndex(module), keys.apiIndexModules()),
                List.of(module, Integer.toString(entries.size())));
    }

    /** Whether the index of {@code module} is in Redis, listed among the modules. */
    public boolean isReported(String module) {
        List<Object> replies = redis.pipelined(commands -> List.of(commands.exists(keys.apiIndex(module)),
                commands.sismember(keys.apiIndexModules(), module)));
        return Long.valueOf(1).equals(replies.get(0)) && Boolean.TRUE.equals(replies.get(1));
    }

    /** The modules that reported an index, sorted. */
    public SortedSet<String> modules() {
        return new TreeSet<>(redis.sync().smembers(keys.apiIndexModules()));
    }

    /** The index of one module by {@code <module>.<rule>}, sorted; a value that does not parse is skipped, with a warning. */
    public SortedMap<String, ApiIndexEntry> entries(String module) {
        SortedMap<String, ApiIndexEntry> entries = new TreeMap<>();
        redis.sync().hgetall(keys.apiIndex(module)).forEach((id, value) -> {
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
}
