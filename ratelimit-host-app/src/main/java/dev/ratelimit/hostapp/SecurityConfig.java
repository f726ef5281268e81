package dev.ratelimit.hostapp;

import static org.springframework.security.config.Customizer.withDefaults;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;

/**
 * The catalogue is public; the account page needs a signed-in customer (form login), repricing and the
 * actuator an admin (the form or HTTP Basic, for monitoring), but for health and info, which probes read.
 */
@Configuration(proxyBeanMethods = false)
class SecurityConfig {

    @Bean
    SecurityFilterChain web(HttpSecurity http) throws Exception {
        return http
                .authorizeHttpRequests(requests -> requests
                        .requestMatchers("/", "/books", "/books/**", "/api/books/**", "/login", "/error", "/css/**")
                        .permitAll()
                        .requestMatchers("/actuator/health", "/actuator/health/**", "/actuator/info").permitAll()
                        .requestMatchers("/admin/**", "/actuator/**").hasRole("ADMIN")
                        .anyRequest().authenticated())
                .formLogin(login -> login.loginPage("/login").defaultSuccessUrl("/account"))
                .httpBasic(withDefaults())
                .build();
    }

    @Bean
    UserDetailsService users() {
        return new InMemoryUserDetailsManager(
                User.withUsername("reader")
                        .password("{bcrypt}$2a$10$1RevV0a7XH7pafAam/k0AeK7l8yGRiYf/b9hnOeFeN2OBna/v2GQa")
                        .roles("CUSTOMER").build(),
                User.withUsername("ops")
                        .password("{bcrypt}$2a$10$2ZYT5jHucByqmgEkw4AFgeQ6VwKQChQIbGUNbjpOhRzVH.I15oAJC")
                        .roles("CUSTOMER", "ADMIN").build());
    }
}
