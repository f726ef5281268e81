package dev.ratelimit.interceptor.config;

import java.util.Map;
import java.util.Optional;

/**
 * A copy of the config hash kept outside Redis (the interception log's database), so that operators'
 * values survive Redis and every instance restarting together. The newest version wins wherever it is.
 */
public interface DurableConfigCopy {

    /** The copy kept, or empty when there is none or it cannot be read now. Never throws. */
    Optional<Copy> load();

    /**
     * Keeps {@code fields} at {@code version} when that is newer than the copy kept, or as new but
     * different (a value set by hand in Redis, which advances no version). Never throws.
     *
     * @return the copy kept when it is newer than {@code version}: the hash in Redis is older, and should
     *         be put back from it
     */
    Optional<Copy> keep(long version, Map<String, String> fields);

    /** A copy as kept: the hash's fields at one version. */
    record Copy(long version, Map<String, String> fields) {

        public Copy {
            fields = Map.copyOf(fields);
        }
    }
}
