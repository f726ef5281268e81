package dev.ratelimit.consoleapp;

import java.util.Map;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;

/**
 * The operations console on its own, for every app that shares its Redis (rules, API index, live
 * statistics, blocked clients) and its log database (interceptions, audit trail), configured with the
 * usual {@code spring.data.redis.*} and {@code spring.datasource.*} properties. Without a datasource it
 * runs on an empty in-memory H2: rules, live traffic and blocked clients work, the interception pages
 * show nothing. Operators sign in with the console's password login, or at an identity provider when an
 * OAuth2 client registration is configured ({@link ConsoleSecurityConfiguration}).
 */
@SpringBootApplication
public class ConsoleApplication {

    /**
     * Defaults, as Spring Boot's lowest-precedence properties, so that any property source overrides
     * them. A console only: it reports no API index and no traffic or heartbeat of its own, so it never
     * shows up as a module or an instance; the limiter stays on because the console reads the rules
     * through it (its own pages are exempt).
     */
    static final Map<String, Object> DEFAULTS = Map.of(
            "spring.application.name", "ratelimit-console",
            "server.port", "8090",
            "ratelimit.api-index.report", "false",
            "ratelimit.stats.enabled", "false");

    public static void main(String[] args) {
        application().run(args);
    }

    static SpringApplicationBuilder application() {
        return new SpringApplicationBuilder(ConsoleApplication.class).properties(DEFAULTS);
    }
}
