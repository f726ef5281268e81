package dev.ratelimit.interceptor.testsupport;

import dev.ratelimit.interceptor.fixture.FixtureApplication;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A private redis-server and the apps a test starts against it, all stopped afterwards. Registered
 * on a static field ({@code @RegisterExtension static}) they live for the test class; on an instance
 * field, each test gets its own.
 */
public final class RedisWithApps implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback,
        AfterEachCallback {

    private final List<ConfigurableApplicationContext> apps = new ArrayList<>();
    private final List<String> redisOptions;
    private RedisServerProcess redis;
    private boolean perClass;

    public RedisWithApps() {
        this(List.of());
    }

    /** @param redisOptions command line options of the redis-server, e.g. {@code --maxmemory 4mb} */
    public RedisWithApps(List<String> redisOptions) {
        this.redisOptions = List.copyOf(redisOptions);
    }

    public RedisServerProcess redis() {
        return redis;
    }

    /** Starts the fixture app ({@link FixtureApplication}) with extra {@code key=value} properties. */
    public ConfigurableApplicationContext start(String... properties) {
        return start(FixtureApplication.class, properties);
    }

    /** Starts an app of the given configuration class as module {@code fixture}. */
    public ConfigurableApplicationContext start(Class<?> application, String... properties) {
        ConfigurableApplicationContext app = FixtureApplication.start(application, redis.port(), properties);
        apps.add(app);
        return app;
    }

    /** The apps started so far, in order. */
    public List<ConfigurableApplicationContext> apps() {
        return List.copyOf(apps);
    }

    public void stop(ConfigurableApplicationContext app) {
        apps.remove(app);
        app.close();
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        perClass = true;
        redis = RedisServerProcess.start(redisOptions);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        stopAll();
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        if (!perClass) {
            redis = RedisServerProcess.start(redisOptions);
        }
    }

    @Override
    public void afterEach(ExtensionContext context) {
        if (!perClass) {
            stopAll();
        }
    }

    private void stopAll() {
        apps.forEach(ConfigurableApplicationContext::close);
        apps.clear();
        redis.close();
    }
}
