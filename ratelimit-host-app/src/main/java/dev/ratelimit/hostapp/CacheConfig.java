package dev.ratelimit.hostapp;

import org.springframework.cache.annotation.EnableCaching;
import org.springframework.context.annotation.Configuration;

/** Caching on, in a class of its own rather than on the application class, so that the test slices leave it out. */
@Configuration(proxyBeanMethods = false)
@EnableCaching
class CacheConfig {
}
