package dev.ratelimit.apiindex;

import org.springframework.aot.hint.BindingReflectionHintsRegistrar;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;

/** The API index's Lua script and the entries Jackson writes to and reads from Redis, for a native image. */
class ApiIndexRuntimeHints implements RuntimeHintsRegistrar {

    @Override
    public void registerHints(RuntimeHints hints, ClassLoader classLoader) {
        hints.resources().registerPattern("dev/ratelimit/apiindex/*.lua");
        new BindingReflectionHintsRegistrar().registerReflectionHints(hints.reflection(), ApiIndexEntry.class);
    }
}
