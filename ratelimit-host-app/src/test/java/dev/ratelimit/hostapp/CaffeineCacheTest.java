package dev.ratelimit.hostapp;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.benmanes.caffeine.cache.Cache;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.cache.CacheManager;
import org.springframework.cache.caffeine.CaffeineCacheManager;

/**
 * Where the shop runs with Caffeine's own API instead of JCache (spring.cache.type=caffeine), its spec applies:
 * bounded, with statistics.
 */
@SpringBootTest(properties = {"spring.cache.type=caffeine", "spring.cache.caffeine.spec=maximumSize=500,recordStats"})
class CaffeineCacheTest {

    @Autowired
    CacheManager cacheManager;

    @Autowired
    Catalog catalog;

    @Test
    void theCacheIsCaffeineWithItsSpec() {
        assertThat(cacheManager).isInstanceOf(CaffeineCacheManager.class);
        assertThat(cacheManager.getCacheNames()).containsExactly(Catalog.BOOKS);
        Cache<?, ?> books = (Cache<?, ?>) cacheManager.getCache(Catalog.BOOKS).getNativeCache();
        assertThat(books.policy().eviction()).hasValueSatisfying(eviction -> assertThat(eviction.getMaximum()).isEqualTo(500));

        catalog.book("9780140449136");
        catalog.book("9780140449136");

        assertThat(books.stats().missCount()).isEqualTo(1);
        assertThat(books.stats().hitCount()).isEqualTo(1);
    }
}
