package dev.ratelimit.interceptor.config;

import java.util.Map;
import org.jspecify.annotations.Nullable;

/** Where an instance reads the config hash, and puts a copy back when the hash was lost. */
public interface ConfigHash {

    /** No hash at all: an app without Redis, whose annotations apply as declared. */
    ConfigHash NONE = new ConfigHash() {
        @Override
        public Map<String, String> readAll() {
            return Map.of();
        }

        @Override
        public Long version() {
            return 0L;
        }

        @Override
        public boolean restore(long version, Map<String, String> copy) {
            return false;
        }
    };

    /** Every field; empty when the hash does not exist. Throws when Redis does not answer. */
    Map<String, String> readAll();

    /** {@code config.version} alone, {@code null} when the hash does not exist: cheap to ask often. */
    @Nullable Long version();

    /** Puts {@code copy} back only where the hash is absent or older than {@code version}; whether it did. */
    boolean restore(long version, Map<String, String> copy);
}
