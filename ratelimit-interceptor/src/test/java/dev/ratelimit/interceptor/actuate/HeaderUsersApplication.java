package dev.ratelimit.interceptor.actuate;

import dev.ratelimit.interceptor.fixture.FixtureApplication;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.security.Principal;
import java.util.Set;
import org.springframework.boot.actuate.endpoint.SanitizingFunction;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * The fixture app with users as a servlet container authenticates them (header {@code X-User}, roles in
 * {@code X-Roles}), which is what Spring Boot's actuator asks of a request; with
 * {@code test.sanitize-notes=true}, a {@link SanitizingFunction} of the app that hides deny-list notes.
 */
@Configuration(proxyBeanMethods = false)
@Import(FixtureApplication.class)
public class HeaderUsersApplication {

    public static final String USER = "X-User";
    public static final String ROLES = "X-Roles";

    @Bean
    FilterRegistrationBean<OncePerRequestFilter> headerUsers() {
        return new FilterRegistrationBean<>(new OncePerRequestFilter() {
            @Override
            protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
                    throws ServletException, IOException {
                String user = request.getHeader(USER);
                Set<String> roles = Set.of(String.valueOf(request.getHeader(ROLES)).split(","));
                chain.doFilter(user == null ? request : new HttpServletRequestWrapper(request) {
                    @Override
                    public Principal getUserPrincipal() {
                        return () -> user;
                    }

                    @Override
                    public boolean isUserInRole(String role) {
                        return roles.contains(role);
                    }
                }, response);
            }
        });
    }

    @Bean
    @ConditionalOnProperty("test.sanitize-notes")
    SanitizingFunction hideDenyNotes() {
        return data -> data.getKey().equals("denyList.entries.note") ? data.withSanitizedValue() : data;
    }
}
