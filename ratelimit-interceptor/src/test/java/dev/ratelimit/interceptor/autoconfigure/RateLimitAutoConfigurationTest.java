package dev.ratelimit.interceptor.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.config.SysConfigRepository;
import dev.ratelimit.interceptor.decision.RequestLimiter;
import dev.ratelimit.interceptor.store.CounterRequest;
import dev.ratelimit.interceptor.store.LimiterRedisConnection;
import dev.ratelimit.interceptor.store.RateLimitStore;
import dev.ratelimit.interceptor.store.StoreResult;
import dev.ratelimit.interceptor.stats.TrafficStatistics;
import dev.ratelimit.interceptor.internal.store.batch.BatchingRateLimitStore;
import dev.ratelimit.interceptor.internal.store.batch.HeldPermits;
import dev.ratelimit.interceptor.store.memory.MemoryRateLimitStore;
import dev.ratelimit.interceptor.internal.store.nearcache.NearCache;
import dev.ratelimit.interceptor.internal.store.nearcache.NearCacheRateLimitStore;
import dev.ratelimit.interceptor.internal.store.resilience.CircuitBreaker;
import dev.ratelimit.interceptor.internal.store.resilience.FailoverRateLimitStore;
import dev.ratelimit.interceptor.testsupport.RedisServerProcess;
import dev.ratelimit.interceptor.testsupport.Stores;
import dev.ratelimit.interceptor.web.RateLimitInterceptor;
import io.lettuce.core.RedisClient;
import io.lettuce.core.resource.ClientResources;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Which store the auto-configuration builds under each condition, on a real Redis: the default (Redis
 * behind the circuit and the near cache), without the near cache, the in-process store, an app's own
 * store; and which Redis the limiter connects to: {@code spring.data.redis.*} without Spring Boot's Redis,
 * the app's connection details with it, {@code ratelimit.redis.url} over both, never declaring a Redis bean
 * of its own and never using the app's.
 */
class RateLimitAutoConfigurationTest {

    private static RedisServerProcess redis;
    private static WebApplicationContextRunner withRedis;

    @BeforeAll
    static void startRedis() {
        redis = RedisServerProcess.start();
        withRedis = new WebApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(RateLimitAutoConfiguration.class, RateLimitWebMvcAutoConfiguration.class))
                .withPropertyValues("spring.data.redis.port=" + redis.port());
    }

    @AfterAll
    static void stopRedis() {
        redis.close();
    }

    @Test
    void byDefaultRedisDecidesBehindTheCircuitAndTheNearCacheOnAConnectionOpenedAtStart() {
        redis.commands().configResetstat();
        withRedis.run(context -> {
            assertThat(context).hasSingleBean(LimiterRedisConnection.class).hasSingleBean(CircuitBreaker.class)
                    .hasSingleBean(NearCache.class).hasSingleBean(RequestLimiter.class)
                    .hasSingleBean(RateLimitInterceptor.class);
            RateLimitStore store = context.getBean(RateLimitStore.class);
            assertThat(store).isInstanceOf(NearCacheRateLimitStore.class);
            assertThat(store.describe().type()).isEqualTo("redis");
            assertThat(store.describe().details()).containsKeys("circuit", "nearCache", "whileOpen", "hotKeys")
                    .containsEntry("silence", "PT0.25S").containsEntry("failurePolicy", "local");
            assertThat(redis.commands().info("commandstats")).as("scripts loaded at start").contains("cmdstat_script");
            assertThat(Stores.decided(store.acquire(List.of(request("default"))))).hasSize(1);
        });
    }

    @Test
    void withoutTheNearCacheTheHotCountersAreInFrontAndWithoutThemTheCircuit() {
        withRedis.withPropertyValues("ratelimit.near-cache.enabled=false").run(context -> {
            assertThat(context).doesNotHaveBean(NearCache.class).hasSingleBean(HeldPermits.class);
            assertThat(context.getBean(RateLimitStore.class)).isInstanceOf(BatchingRateLimitStore.class);
        });
        withRedis.withPropertyValues("ratelimit.near-cache.enabled=false", "ratelimit.hot-keys.enabled=false")
                .run(context -> {
                    assertThat(context).doesNotHaveBean(HeldPermits.class);
                    assertThat(context.getBean(RateLimitStore.class)).isInstanceOf(FailoverRateLimitStore.class);
                });
    }

    @Test
    void anExcludedRuleMustNameARuleOfTheModule() {
        withRedis.withPropertyValues("spring.application.name=app-shop", "ratelimit.hot-keys.excluded-rules=billing.pay")
                .run(context -> assertThat(context).hasFailed().getFailure().rootCause()
                        .hasMessageContaining("ratelimit.hot-keys.excluded-rules").hasMessageContaining("billing.pay"));
    }

    @Test
    void theInProcessStoreTouchesNoRedisEvenWhenTheAppHasOne() {
        redis.commands().flushall();
        withRedis.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class,
                        RateLimitStatsAutoConfiguration.class))
                .withPropertyValues("ratelimit.store=memory").run(context -> {
                    assertThat(context).doesNotHaveBean(LimiterRedisConnection.class).doesNotHaveBean(CircuitBreaker.class)
                            .doesNotHaveBean(NearCache.class).doesNotHaveBean(SysConfigRepository.class)
                            .doesNotHaveBean(TrafficStatistics.class).hasSingleBean(RateLimitInterceptor.class);
                    RateLimitStore store = context.getBean(RateLimitStore.class);
                    assertThat(store).isInstanceOf(MemoryRateLimitStore.class);
                    assertThat(Stores.decided(store.acquire(List.of(request("alone"))))).hasSize(1);
                    assertThat(redis.commands().clientList().lines()).as("clients of Redis: this test's only").hasSize(1);
                });
        assertThat(redis.commands().keys("*")).isEmpty();
    }

    @Test
    void countersInTheProcessKeepTheirRulesInTheRedisNamedForTheLimiter() {
        withRedis.withPropertyValues("ratelimit.store=memory", "ratelimit.redis.url=redis://127.0.0.1:" + redis.port())
                .run(context -> {
                    assertThat(context).hasSingleBean(LimiterRedisConnection.class).hasSingleBean(SysConfigRepository.class)
                            .doesNotHaveBean(CircuitBreaker.class).doesNotHaveBean(NearCache.class);
                    assertThat(context.getBean(RateLimitStore.class)).isInstanceOf(MemoryRateLimitStore.class);
                });
    }

    @Test
    void withoutSpringBootsRedisTheLimiterReadsSpringDataRedisItselfAndDeclaresNoRedisBean() {
        withRedis.run(context -> {
            assertThat(context).hasSingleBean(LimiterRedisConnection.class).doesNotHaveBean(RedisConnectionFactory.class)
                    .doesNotHaveBean(RedisTemplate.class);
            assertThat(Stores.decided(context.getBean(RateLimitStore.class).acquire(List.of(request("own"))))).hasSize(1);
            assertThat(redis.commands().exists("test:own")).isEqualTo(1);
        });
    }

    @Test
    void withSpringBootsRedisTheLimiterConnectsAsTheAppDoesOnAConnectionOfItsOwn() {
        withRedis.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class)).run(context -> {
            assertThat(context).hasSingleBean(RedisConnectionFactory.class).hasSingleBean(LimiterRedisConnection.class);
            LettuceConnectionFactory app = (LettuceConnectionFactory) context.getBean(RedisConnectionFactory.class);
            assertThat(context.getBean(LimiterRedisConnection.class).client()).isNotSameAs(app.getRequiredNativeClient());
            assertThat(context.getBean(LimiterRedisServer.class).origin()).isEqualTo("the app's Redis connection details");
            assertThat(Stores.decided(context.getBean(RateLimitStore.class).acquire(List.of(request("boot"))))).hasSize(1);
            ClientResources limiters = context.getBean(LimiterRedisConnection.class).client().getResources();
            assertThat(limiters.commandLatencyRecorder().isEnabled())
                    .as("the limiter's client keeps no latency statistics (histograms, pause-detector threads)").isFalse();
            assertThat(app.getClientResources())
                    .as("the app's client is left as Spring Boot made it").isNotSameAs(limiters);
            assertThat(redis.commands().exists("test:boot")).isEqualTo(1);
        });
    }

    @Test
    void ratelimitRedisUrlNamesTheLimitersRedisWhateverTheAppUses() {
        new WebApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, RateLimitAutoConfiguration.class,
                        RateLimitWebMvcAutoConfiguration.class))
                .withPropertyValues("spring.data.redis.port=" + RedisServerProcess.freePort(),
                        "ratelimit.redis.url=redis://127.0.0.1:" + redis.port() + "/0")
                .run(context -> {
                    assertThat(context.getBean(LimiterRedisServer.class).origin()).isEqualTo("ratelimit.redis.url");
                    assertThat(Stores.decided(context.getBean(RateLimitStore.class).acquire(List.of(request("url")))))
                            .hasSize(1);
                    assertThat(redis.commands().exists("test:url")).isEqualTo(1);
                });
    }

    @Test
    void aRedisUrlThatIsNoUriFailsTheStartNamingTheProperty() {
        withRedis.withPropertyValues("ratelimit.redis.url=localhost:6379").run(context -> assertThat(context)
                .hasFailed().getFailure().rootCause().hasMessageContaining("ratelimit.redis.url")
                .hasMessageContaining("redis://"));
    }

    @Test
    void anAppsOwnStoreIsUsedAsItIs() {
        withRedis.withUserConfiguration(OwnStore.class).run(context -> {
            assertThat(context.getBean(RateLimitStore.class)).isSameAs(context.getBean(OwnStore.class).store);
            assertThat(context).hasSingleBean(RateLimitInterceptor.class);
        });
    }

    @Test
    void anAppOnJedisKeepsItsClientAndTheLimiterDecidesOnItsOwn() {
        withRedis.withUserConfiguration(JedisClient.class).run(context -> {
            RateLimitStore store = context.getBean(RateLimitStore.class);
            assertThat(context.getBean(LimiterRedisConnection.class).client()).isInstanceOf(RedisClient.class);
            assertThat(store.describe().details()).containsEntry("silence", "PT0.25S");
            assertThat(Stores.decided(store.acquire(List.of(request("jedis"))))).hasSize(1);
            assertThat(redis.commands().exists("test:jedis")).isEqualTo(1);
        });
    }

    private static CounterRequest request(String identity) {
        return new CounterRequest("test:" + identity, Algorithm.FIXED_WINDOW, 5, 60_000);
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnStore {

        final RateLimitStore store = new MemoryRateLimitStore(Clock.systemUTC(), 10);

        @Bean
        RateLimitStore ownStore() {
            return store;
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class JedisClient {

        @Bean(destroyMethod = "destroy")
        JedisConnectionFactory redisConnectionFactory() {
            JedisConnectionFactory factory = new JedisConnectionFactory(
                    new RedisStandaloneConfiguration("127.0.0.1", redis.port()));
            factory.afterPropertiesSet();
            factory.start();
            return factory;
        }

        @Bean
        StringRedisTemplate stringRedisTemplate(JedisConnectionFactory factory) {
            return new StringRedisTemplate(factory);
        }
    }
}
