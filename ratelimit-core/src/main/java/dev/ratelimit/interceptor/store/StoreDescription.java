package dev.ratelimit.interceptor.store;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a store is and how it is doing, for the actuator endpoint.
 *
 * @param type    {@code redis}, {@code memory}, or the class of an app's own store
 * @param details state worth showing (numbers, strings, nested maps), in a stable order
 */
public record StoreDescription(String type, Map<String, Object> details) {

    public StoreDescription {
        details = Collections.unmodifiableMap(new LinkedHashMap<>(details));
    }

    /** This description with one more detail: how a store wrapped around another adds what it knows. */
    public StoreDescription with(String name, Object value) {
        Map<String, Object> more = new LinkedHashMap<>(details);
        more.put(name, value);
        return new StoreDescription(type, more);
    }
}
