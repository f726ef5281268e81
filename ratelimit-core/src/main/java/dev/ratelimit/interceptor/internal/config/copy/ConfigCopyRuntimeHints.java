package dev.ratelimit.interceptor.internal.config.copy;

import dev.ratelimit.interceptor.internal.log.database.MapperHints;
import org.jspecify.annotations.Nullable;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;

/** The durable config copy's mapper and the row it reads, for a native image. */
class ConfigCopyRuntimeHints implements RuntimeHintsRegistrar {

    @Override
    public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
        MapperHints.register(hints, ConfigCopyMapper.class, ConfigCopyMapper.CopyRow.class);
    }
}
