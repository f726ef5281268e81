package dev.ratelimit.interceptor.testsupport;

import dev.ratelimit.interceptor.autoconfigure.RateLimitProperties;
import dev.ratelimit.interceptor.store.CounterRequest;
import dev.ratelimit.interceptor.store.Decision;
import dev.ratelimit.interceptor.store.LimiterRedisConnection;
import dev.ratelimit.interceptor.store.RateLimitStore;
import dev.ratelimit.interceptor.store.StoreResult;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.data.redis.core.StringRedisTemplate;

/** Stores as tests use them directly, with the settings an app gets by default. */
public final class Stores {

    /** The properties of an app that sets none: the shipped defaults, read from the properties class itself. */
    public static final RateLimitProperties DEFAULTS = new Binder(new MapConfigurationPropertySource(Map.of()))
            .bindOrCreate("ratelimit", RateLimitProperties.class);

    private Stores() {
    }

    /** A limiter connection on {@code template} with the shipped timeouts; closing it leaves the template open. */
    public static LimiterRedisConnection connection(StringRedisTemplate template) {
        return new LimiterRedisConnection(template, DEFAULTS.redis().timeout(), DEFAULTS.redis().maxWait(), () -> { });
    }

    /** The decisions of a store that must have decided; fails the test with the store's reason otherwise. */
    public static List<Decision> decided(StoreResult result) {
        if (result instanceof StoreResult.Decided decided) {
            return decided.decisions();
        }
        throw new AssertionError("the store did not decide: " + ((StoreResult.NotDecided) result).reason());
    }

    /** One counter, decided. */
    public static Decision decide(RateLimitStore store, CounterRequest request) {
        return decided(store.acquire(List.of(request))).get(0);
    }
}
