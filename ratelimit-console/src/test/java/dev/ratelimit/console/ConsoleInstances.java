package dev.ratelimit.console;

import dev.ratelimit.interceptor.fixture.FixtureApplication;
import dev.ratelimit.interceptor.testsupport.HttpProbe;
import dev.ratelimit.interceptor.testsupport.RedisServerProcess;
import java.util.ArrayList;
import java.util.List;
import org.springframework.context.ConfigurableApplicationContext;

/** A redis-server and instances of the fixture app serving the console, each with an in-memory log of its own. */
final class ConsoleInstances implements AutoCloseable {

    private final RedisServerProcess redis;
    private final List<ConfigurableApplicationContext> apps = new ArrayList<>();

    private ConsoleInstances(RedisServerProcess redis) {
        this.redis = redis;
    }

    /** @param name names the instances' log databases, {@code <name>-1}, {@code <name>-2}... */
    static ConsoleInstances start(String name, int count) {
        ConsoleInstances instances = new ConsoleInstances(RedisServerProcess.start());
        for (int i = 1; i <= count; i++) {
            instances.apps.add(FixtureApplication.start(instances.redis.port(), ConsoleSession.PASSWORD_PROPERTY,
                    "spring.datasource.url=jdbc:h2:mem:" + name + "-" + i + ";DB_CLOSE_DELAY=-1"));
        }
        return instances;
    }

    ConfigurableApplicationContext app(int index) {
        return apps.get(index);
    }

    int port(int index) {
        return FixtureApplication.port(app(index));
    }

    RedisServerProcess redis() {
        return redis;
    }

    HttpProbe probe(int index) {
        return new HttpProbe(port(index));
    }

    ConsoleSession signedIn(int index) {
        return ConsoleSession.signedIn(port(index));
    }

    @Override
    public void close() {
        apps.forEach(ConfigurableApplicationContext::close);
        redis.close();
    }
}
