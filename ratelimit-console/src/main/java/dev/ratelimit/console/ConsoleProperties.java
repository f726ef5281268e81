package dev.ratelimit.console;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The console, under {@code ratelimit.console.*}.
 *
 * @param path           where the console is served; never rate limited
 * @param username       operator name for the built-in login
 * @param password       operator password; when empty a random one is generated and logged once at start-up
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
    }
}
