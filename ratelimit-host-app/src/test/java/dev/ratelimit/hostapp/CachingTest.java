package dev.ratelimit.hostapp;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.benmanes.caffeine.jcache.spi.CaffeineCachingProvider;
import java.math.BigDecimal;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.cache.CacheManager;
import org.springframework.cache.jcache.JCacheCacheManager;
import org.springframework.jdbc.core.simple.JdbcClient;

/** Books are cached through JCache, on the provider on the classpath: Caffeine's. */
@BookshopTest
class CachingTest {

    private static final String WALDEN = "9780199536559";

    @Autowired
    CacheManager cacheManager;

    @Autowired
    Catalog catalog;

    @Autowired
    JdbcClient jdbc;

    @Test
    void theCacheIsCaffeinesJCache() {
        assertThat(cacheManager).isInstanceOf(JCacheCacheManager.class);
        javax.cache.CacheManager jcache = ((JCacheCacheManager) cacheManager).getCacheManager();
        assertThat(jcache.getCachingProvider()).isInstanceOf(CaffeineCachingProvider.class);
        assertThat(cacheManager.getCacheNames()).containsExactly(Catalog.BOOKS);
    }

    @Test
    void aBookIsReadOnceThenServedFromTheCacheUntilItIsRepriced() {
        cacheManager.getCache(Catalog.BOOKS).evict(WALDEN);
        assertThat(catalog.book(WALDEN).price()).isEqualByComparingTo("7.25");
        assertThat(cacheManager.getCache(Catalog.BOOKS).get(WALDEN, BookView.class).title()).isEqualTo("Walden");

        setPriceBehindTheCatalogsBack("99.00");
        assertThat(catalog.book(WALDEN).price()).as("from the cache").isEqualByComparingTo("7.25");

        catalog.reprice(WALDEN, new BigDecimal("8.00"));
        assertThat(cacheManager.getCache(Catalog.BOOKS).get(WALDEN)).as("evicted").isNull();
        assertThat(catalog.book(WALDEN).price()).isEqualByComparingTo("8.00");
    }

    @AfterEach
    void restoreWalden() {
        catalog.reprice(WALDEN, new BigDecimal("7.25"));
    }

    private void setPriceBehindTheCatalogsBack(String price) {
        jdbc.sql("update book set price = ? where isbn = ?").params(new BigDecimal(price), WALDEN).update();
    }
}
