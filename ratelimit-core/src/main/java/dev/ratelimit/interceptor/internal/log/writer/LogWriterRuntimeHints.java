package dev.ratelimit.interceptor.internal.log.writer;

import dev.ratelimit.interceptor.internal.log.database.MapperHints;
import org.jspecify.annotations.Nullable;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;

/** The log writer's mapper and the row it inserts, for a native image. */
class LogWriterRuntimeHints implements RuntimeHintsRegistrar {

    @Override
    public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
        MapperHints.register(hints, LogWriteMapper.class, LogRow.class);
    }
}
