package dev.ratelimit.consoleapp;

import dev.ratelimit.interceptor.fixture.FixtureApplication;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.springframework.boot.security.autoconfigure.UserDetailsServiceAutoConfiguration;
import org.springframework.boot.security.autoconfigure.actuate.web.servlet.ManagementWebSecurityAutoConfiguration;
import org.springframework.boot.security.autoconfigure.web.servlet.ServletWebSecurityAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;

/** The apps whose limits the console shows, started beside it on the same Redis, without a console of their own. */
final class OtherApps {

    /**
     * Spring Security is on this module's classpath for the console's single sign-on; the apps beside it
     * have no security, as in the other modules' tests, so their endpoints answer without a login.
     */
    private static final String NO_SECURITY = "spring.autoconfigure.exclude=" + Stream.of(
                    ServletWebSecurityAutoConfiguration.class, ManagementWebSecurityAutoConfiguration.class,
                    UserDetailsServiceAutoConfiguration.class)
            .map(Class::getName).collect(Collectors.joining(","));

    private OtherApps() {
    }

    /** Module {@code module} (application {@code app-<module>}); extra properties as {@code key=value}. */
    static ConfigurableApplicationContext start(int redisPort, String module, String... properties) {
        return FixtureApplication.start(redisPort, Stream.concat(Stream.of("spring.application.name=app-" + module,
                "ratelimit.console.enabled=false", NO_SECURITY), Stream.of(properties)).toArray(String[]::new));
    }
}
