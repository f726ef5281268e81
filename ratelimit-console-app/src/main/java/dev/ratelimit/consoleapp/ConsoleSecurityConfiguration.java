package dev.ratelimit.consoleapp;

import dev.ratelimit.console.ConsoleProperties;
import dev.ratelimit.console.access.ConsoleAccessPolicy;
import org.springframework.boot.autoconfigure.condition.NoneNestedConditions;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.security.oauth2.client.autoconfigure.ConditionalOnOAuth2ClientRegistrationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpMethod;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.servlet.util.matcher.PathPatternRequestMatcher;
import org.springframework.security.web.util.matcher.AndRequestMatcher;
import org.springframework.security.web.util.matcher.NegatedRequestMatcher;

/**
 * Who signs in to the console: the operators of an identity provider when an OAuth2 client
 * registration is configured ({@code spring.security.oauth2.client.registration.<id>.*}), otherwise the
 * console's built-in password login, as without Spring Security.
 */
@Configuration(proxyBeanMethods = false)
class ConsoleSecurityConfiguration {

    /** OpenID Connect login on every page; the claims of the ID token make the operator. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnOAuth2ClientRegistrationProperties
    @EnableConfigurationProperties(ConsoleOidcProperties.class)
    static class SingleSignOn {

        @Bean
        ConsoleAccessPolicy oidcConsoleAccess(ConsoleOidcProperties claims) {
            return new OidcConsoleAccess(claims);
        }

        /**
         * The console's "Log out" form ends the Spring Security session and shows Spring's sign-in page. The
         * console checks a CSRF token of its own on its forms, so Spring's is off there, except on the
         * logout, which Spring handles before the console sees it (the form carries Spring's token too:
         * Thymeleaf adds it to every form).
         */
        @Bean
        SecurityFilterChain singleSignOn(HttpSecurity http, ConsoleProperties console) {
            PathPatternRequestMatcher.Builder paths = PathPatternRequestMatcher.withDefaults();
            return http
                    .authorizeHttpRequests(requests -> requests.anyRequest().authenticated())
                    .oauth2Login(Customizer.withDefaults())
                    .logout(logout -> logout.logoutRequestMatcher(paths.matcher(HttpMethod.POST, console.path() + "/logout")))
                    .csrf(csrf -> csrf.ignoringRequestMatchers(new AndRequestMatcher(
                            paths.matcher(console.path() + "/**"),
                            new NegatedRequestMatcher(paths.matcher(console.path() + "/logout")))))
                    .build();
        }
    }

    /**
     * Without a client registration, Spring Security (on the classpath for the single sign-on) stays out
     * of every request: its default chain would put a login of its own in front of the console's.
     */
    @Configuration(proxyBeanMethods = false)
    @Conditional(NoClientRegistration.class)
    static class BuiltInLogin {

        @Bean
        SecurityFilterChain consoleLoginOnly(HttpSecurity http) {
            return http.securityMatcher(request -> false).build();
        }
    }

    static class NoClientRegistration extends NoneNestedConditions {

        NoClientRegistration() {
            super(ConfigurationPhase.REGISTER_BEAN);
        }

        @ConditionalOnOAuth2ClientRegistrationProperties
        static class Registered {
        }
    }
}
