package dev.ratelimit.interceptor.store;

import dev.ratelimit.interceptor.Algorithm;

/** One request to count against one counter. */
public record CounterRequest(String key, Algorithm algorithm, long limit, long windowMillis) {
}
