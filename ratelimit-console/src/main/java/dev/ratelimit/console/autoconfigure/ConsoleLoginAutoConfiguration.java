package dev.ratelimit.console.autoconfigure;

import dev.ratelimit.console.ConsoleProperties;
import dev.ratelimit.console.access.ConsoleAccessPolicy;
import dev.ratelimit.console.access.ConsoleUsers;
import dev.ratelimit.console.access.HmacSigner;
import dev.ratelimit.console.access.PasswordLogin;
import dev.ratelimit.console.access.RedisSessionRevocations;
import dev.ratelimit.console.access.SessionRevocations;
import dev.ratelimit.interceptor.store.RedisKeys;
import dev.ratelimit.interceptor.store.LimiterRedisConnection;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.Base64;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * The console's built-in password login, unless the app declares its own {@link ConsoleAccessPolicy}.
 * A top-level auto-configuration rather than a nested class, so an app scanning the console's package
 * does not pick it up before its own policy is known.
 */
@AutoConfiguration(after = ConsoleAutoConfiguration.class)
@ConditionalOnBean(ConsoleProperties.class)
@ConditionalOnMissingBean(ConsoleAccessPolicy.class)
public class ConsoleLoginAutoConfiguration {

    private static final Logger log = LoggerFactory.getLogger(ConsoleLoginAutoConfiguration.class);

    @Bean
    @ConditionalOnMissingBean
    SessionRevocations ratelimitConsoleSessionRevocations(LimiterRedisConnection limiter, RedisKeys keys) {
        return new RedisSessionRevocations(limiter.backgroundWork(), keys);
    }

    @Bean
    @ConditionalOnMissingBean
    ConsoleUsers ratelimitConsoleUsers(ConsoleProperties properties) {
        String password = properties.password();
        if ((password == null || password.isBlank()) && properties.users().isEmpty()) {
            byte[] random = new byte[18];
            new SecureRandom().nextBytes(random);
            password = "{noop}" + Base64.getUrlEncoder().withoutPadding().encodeToString(random);
            log.warn("Rate limit console: no ratelimit.console.password set; generated password for user '{}': {}",
                    properties.username(), password.substring("{noop}".length()));
        }
        return ConsoleUsers.of(properties.username(), password, properties.users());
    }

    @Bean
    PasswordLogin ratelimitConsolePasswordLogin(ConsoleProperties properties, ConsoleUsers users, HmacSigner signer,
                                                SessionRevocations revocations) {
        return new PasswordLogin(users, signer, revocations, properties.sessionTimeout(), properties.path(),
                Clock.systemUTC());
    }
}
