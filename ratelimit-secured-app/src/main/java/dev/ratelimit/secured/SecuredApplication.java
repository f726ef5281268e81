package dev.ratelimit.secured;

import dev.ratelimit.console.access.ConsoleAccessPolicy;
import dev.ratelimit.console.access.ConsoleOperator;
import dev.ratelimit.console.access.ConsoleRole;
import java.security.Principal;
import java.util.Set;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;

/**
 * An app behind Spring Security, set up as docs/getting-started.md (With Spring Security) recommends: HTTP Basic with three users (a
 * customer, an operator and an auditor), the limiter counting the signed-in user
 * ({@code ratelimit.identity.user-parameter} empty, so no client can name another user), and the
 * console open to role {@code OPS} to change and to role {@code AUDIT} to look through a
 * {@link ConsoleAccessPolicy}, with its own CSRF check.
 */
@SpringBootApplication
public class SecuredApplication {

    static final String CONSOLE = "/ratelimit-console";

    public static void main(String[] args) {
        SpringApplication.run(SecuredApplication.class, args);
    }

    @Bean
    SecurityFilterChain security(HttpSecurity http) throws Exception {
        return http
                .authorizeHttpRequests(requests -> requests
                        .requestMatchers("/public/**").permitAll()
                        .anyRequest().authenticated())
                .httpBasic(Customizer.withDefaults())
                // The console checks a CSRF token of its own on every form; Spring Security's would refuse them.
                .csrf(csrf -> csrf.ignoringRequestMatchers(CONSOLE + "/**"))
                .build();
    }

    @Bean
    UserDetailsService users() {
        return new InMemoryUserDetailsManager(
                User.withUsername("alice").password("{noop}alice-password").roles("CUSTOMER").build(),
                User.withUsername("olga").password("{noop}olga-password").roles("CUSTOMER", "OPS").build(),
                User.withUsername("vera").password("{noop}vera-password").roles("AUDIT").build());
    }

    /**
     * Operators of every module are the signed-in users of role OPS, viewers those of role AUDIT;
     * everybody else gets 403 from the console.
     */
    @Bean
    ConsoleAccessPolicy consoleRoles() {
        return ConsoleAccessPolicy.of(request -> {
            Principal principal = request.getUserPrincipal();
            if (principal == null) {
                return null;
            }
            return request.isUserInRole("OPS") ? ConsoleOperator.ofEveryModule(principal.getName())
                    : request.isUserInRole("AUDIT") ? new ConsoleOperator(principal.getName(), ConsoleRole.VIEWER, Set.of())
                    : null;
        });
    }
}
