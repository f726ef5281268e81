package dev.ratelimit.secured;

import dev.ratelimit.console.access.ConsoleAccessPolicy;
import java.security.Principal;
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
 * An app behind Spring Security, set up as the README recommends: HTTP Basic with two users (a
 * customer and an operator), the limiter counting the signed-in user
 * ({@code ratelimit.identity.user-parameter} empty, so no client can name another user), and the
 * console open to role {@code OPS} through a {@link ConsoleAccessPolicy}, with its own CSRF check.
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
                User.withUsername("olga").password("{noop}olga-password").roles("CUSTOMER", "OPS").build());
    }

    /** Operators are the signed-in users of role OPS; everybody else gets 403 from the console. */
    @Bean
    ConsoleAccessPolicy opsOnly() {
        return request -> {
            Principal principal = request.getUserPrincipal();
            return principal != null && request.isUserInRole("OPS") ? principal.getName() : null;
        };
    }
}
