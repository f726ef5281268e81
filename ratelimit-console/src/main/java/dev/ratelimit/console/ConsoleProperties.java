package dev.ratelimit.console;

import dev.ratelimit.console.access.ConsoleRole;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The console, under {@code ratelimit.console.*}.
 *
 * @param path           where the console is served; never rate limited
 * @param username       name of the built-in login's operator of every module
 * @param password       that operator's password, plain or hashed as in {@code users}; when empty and no
 *                       {@code users} are set, a random one is generated and logged once at start-up
 * @param users          more users of the built-in login, by name: each with a password, a role and modules
 * @param secret         key that signs login cookies and CSRF tokens; set the same value on every instance
 *                       behind one load balancer (default: random per start, so a restart logs everyone out)
 * @param sessionTimeout how long a login lasts
 * @param pageSize       rows per page of the log table (capped at 500)
 * @param exportRowCap   most rows one Excel export writes
 */
@ConfigurationProperties("ratelimit.console")
public record ConsoleProperties(
        @DefaultValue("true") boolean enabled,
        @DefaultValue("/ratelimit-console") String path,
        @DefaultValue("admin") String username,
        String password,
        Map<String, User> users,
        String secret,
        @DefaultValue("8h") Duration sessionTimeout,
        @DefaultValue("50") int pageSize,
        @DefaultValue("100000") int exportRowCap) {

    public ConsoleProperties {
        if (!path.startsWith("/") || path.endsWith("/") || path.length() < 2) {
            throw new IllegalArgumentException("ratelimit.console.path must start with '/' and not end with it, was '"
                    + path + "'");
        }
        if (pageSize < 1 || exportRowCap < 1) {
            throw new IllegalArgumentException("ratelimit.console.page-size and export-row-cap must be at least 1");
        }
        pageSize = Math.min(pageSize, 500);
        users = users == null ? Map.of() : Map.copyOf(users);
    }

    /**
     * A user of the built-in login.
     *
     * @param password a hash in one of the formats Spring Security's {@code DelegatingPasswordEncoder}
     *                 writes ({@code {bcrypt}...}, {@code {pbkdf2}...}, {@code {argon2}...} needs Bouncy
     *                 Castle), or plain text (a warning at start-up)
     * @param role     {@code viewer} (every page, no change) or {@code operator}
     * @param modules  the modules an operator may change; none: every module, and what every app shares
     */
    public record User(String password, @DefaultValue("viewer") ConsoleRole role, List<String> modules) {

        public User {
            modules = modules == null ? List.of() : List.copyOf(modules);
        }
    }
}
