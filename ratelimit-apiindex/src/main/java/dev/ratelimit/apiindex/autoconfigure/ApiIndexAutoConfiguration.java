package dev.ratelimit.apiindex.autoconfigure;

import dev.ratelimit.apiindex.ApiIndexReporter;
import dev.ratelimit.apiindex.ApiIndexRepository;
import dev.ratelimit.interceptor.store.RedisKeys;
import dev.ratelimit.interceptor.rule.EndpointCatalog;
import dev.ratelimit.interceptor.rule.ExcludedPaths;
import dev.ratelimit.interceptor.internal.startup.StartupTask;
import dev.ratelimit.interceptor.store.LimiterRedisConnection;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;

/**
 * Reports the app's handler methods to the API index once per start, when the app is ready, in the
 * background: a slow or absent Redis never delays or fails the start; and again whenever Redis lost it. An app that only reads the
 * index (the standalone console) sets {@code ratelimit.api-index.report=false}.
 */
@AutoConfiguration(afterName = "dev.ratelimit.interceptor.autoconfigure.RateLimitAutoConfiguration")
@ConditionalOnBean({EndpointCatalog.class, ExcludedPaths.class, LimiterRedisConnection.class})
public class ApiIndexAutoConfiguration {

    /** On the connection of the limiter's background work: its checks run on the thread that reads the config. */
    @Bean
    @ConditionalOnMissingBean
    ApiIndexRepository apiIndexRepository(LimiterRedisConnection limiter, RedisKeys keys) {
        return new ApiIndexRepository(limiter.backgroundWork(), keys);
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnProperty(prefix = "ratelimit.api-index", name = "report", matchIfMissing = true)
    ApiIndexReporter apiIndexReporter(EndpointCatalog catalog, ApiIndexRepository repository, ExcludedPaths excluded) {
        return new ApiIndexReporter(catalog, repository, excluded);
    }

    @Bean
    @ConditionalOnMissingBean(name = "apiIndexStartupTask")
    @ConditionalOnBean(ApiIndexReporter.class)
    StartupTask apiIndexStartupTask(ApiIndexReporter reporter, EndpointCatalog catalog) {
        return new StartupTask("report the API index of module " + catalog.naming().module(), reporter::report);
    }
}
