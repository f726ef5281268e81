package dev.ratelimit.bench.redis;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Spring Data Redis' template on a server, as a Spring app has it (Lettuce, one shared connection: Spring Boot's
 * default): what the peers that run a script the Spring way send through. Closed with the peer that owns it.
 */
final class AppTemplate implements AutoCloseable {

    private final LettuceConnectionFactory factory;
    final StringRedisTemplate template;

    AppTemplate(int port) {
        factory = new LettuceConnectionFactory(new RedisStandaloneConfiguration("127.0.0.1", port));
        factory.afterPropertiesSet();
        factory.start();
        template = new StringRedisTemplate(factory);
    }

    @Override
    public void close() {
        factory.destroy();
    }
}
