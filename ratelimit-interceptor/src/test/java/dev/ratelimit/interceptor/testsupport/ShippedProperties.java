package dev.ratelimit.interceptor.testsupport;

import dev.ratelimit.interceptor.autoconfigure.RateLimitProperties;
import java.util.Map;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/** The properties of an app that sets none: the shipped defaults, bound as the starter binds them. */
public final class ShippedProperties {

    public static final RateLimitProperties DEFAULTS = new Binder(new MapConfigurationPropertySource(Map.of()))
            .bindOrCreate("ratelimit", RateLimitProperties.class);

    private ShippedProperties() {
    }
}
