package dev.ratelimit.idp;

import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.security.autoconfigure.SecurityAutoConfiguration;
import org.springframework.boot.security.autoconfigure.web.servlet.SecurityFilterAutoConfiguration;
import org.springframework.boot.security.autoconfigure.web.servlet.ServletWebSecurityAutoConfiguration;
import org.springframework.boot.security.oauth2.server.authorization.autoconfigure.servlet.OAuth2AuthorizationServerAutoConfiguration;
import org.springframework.boot.security.oauth2.server.authorization.autoconfigure.servlet.OAuth2AuthorizationServerJwtAutoConfiguration;
import org.springframework.boot.tomcat.autoconfigure.servlet.TomcatServletWebServerAutoConfiguration;
import org.springframework.boot.webmvc.autoconfigure.DispatcherServletAutoConfiguration;
import org.springframework.boot.webmvc.autoconfigure.error.ErrorMvcAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.oauth2.core.AuthorizationGrantType;
import org.springframework.security.oauth2.core.ClientAuthenticationMethod;
import org.springframework.security.oauth2.core.oidc.OidcScopes;
import org.springframework.security.oauth2.core.oidc.endpoint.OidcParameterNames;
import org.springframework.security.oauth2.server.authorization.client.InMemoryRegisteredClientRepository;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClient;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClientRepository;
import org.springframework.security.oauth2.server.authorization.settings.ClientSettings;
import org.springframework.security.oauth2.server.authorization.token.JwtEncodingContext;
import org.springframework.security.oauth2.server.authorization.token.OAuth2TokenCustomizer;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;

/**
 * An OpenID Connect provider for tests, as a company runs one: Spring Authorization Server with form
 * login, one registered client (the console, no consent screen) and users whose ID tokens carry their
 * groups in claim {@code groups} and their user name in {@code preferred_username}. Only the auto-configurations an authorization server needs, none of the
 * limiter's or the console's; outside the console app's package, so its component scan never sees it.
 */
@Configuration(proxyBeanMethods = false)
@ImportAutoConfiguration({TomcatServletWebServerAutoConfiguration.class, DispatcherServletAutoConfiguration.class,
        ErrorMvcAutoConfiguration.class, SecurityAutoConfiguration.class, ServletWebSecurityAutoConfiguration.class,
        SecurityFilterAutoConfiguration.class, OAuth2AuthorizationServerAutoConfiguration.class,
        OAuth2AuthorizationServerJwtAutoConfiguration.class})
public class IdentityProvider {

    public static final String CLIENT_ID = "ratelimit-console";
    public static final String CLIENT_SECRET = "console-secret";
    public static final String PASSWORD = "idp-password";

    /** A user and the groups their tokens carry. */
    public record Account(String username, List<String> groups) {
    }

    /**
     * Starts the provider on a free port of 127.0.0.1, with the console registered for any port of that
     * address (a loopback redirect may change port, RFC 8252) under {@code registrationId}.
     */
    public static ConfigurableApplicationContext start(String registrationId, List<Account> accounts) {
        return new SpringApplicationBuilder(IdentityProvider.class)
                .initializers(context -> context.getBeanFactory().registerSingleton("accounts", new Accounts(accounts, registrationId)))
                .properties("server.port=0", "server.address=127.0.0.1", "spring.main.banner-mode=off",
                        "spring.main.web-application-type=servlet",
                        // one host for both apps: the provider's session cookie must not replace the console's
                        "server.servlet.session.cookie.name=IDP_SESSION")
                .run();
    }

    public static String issuer(ConfigurableApplicationContext provider) {
        return "http://127.0.0.1:" + provider.getEnvironment().getProperty("local.server.port");
    }

    record Accounts(List<Account> accounts, String registrationId) {

        List<String> groups(String username) {
            return accounts.stream().filter(account -> account.username().equals(username))
                    .map(Account::groups).findFirst().orElseThrow();
        }
    }

    @Bean
    UserDetailsService users(Accounts accounts) {
        return new InMemoryUserDetailsManager(accounts.accounts().stream()
                .map(account -> User.withUsername(account.username()).password("{noop}" + PASSWORD)
                        .build())
                .toList());
    }

    @Bean
    RegisteredClientRepository clients(Accounts accounts) {
        return new InMemoryRegisteredClientRepository(RegisteredClient.withId(UUID.randomUUID().toString())
                .clientId(CLIENT_ID)
                .clientSecret("{noop}" + CLIENT_SECRET)
                .clientAuthenticationMethod(ClientAuthenticationMethod.CLIENT_SECRET_BASIC)
                .authorizationGrantType(AuthorizationGrantType.AUTHORIZATION_CODE)
                .redirectUri("http://127.0.0.1/login/oauth2/code/" + accounts.registrationId())
                .scopes(scopes -> scopes.addAll(Set.of(OidcScopes.OPENID, OidcScopes.PROFILE)))
                .clientSettings(ClientSettings.builder().requireAuthorizationConsent(false).build())
                .build());
    }

    @Bean
    OAuth2TokenCustomizer<JwtEncodingContext> groupsInTheIdToken(Accounts accounts) {
        return context -> {
            if (OidcParameterNames.ID_TOKEN.equals(context.getTokenType().getValue())) {
                String username = context.getPrincipal().getName();
                context.getClaims().claim("preferred_username", username);
                List<String> groups = accounts.groups(username);
                if (!groups.isEmpty()) {
                    context.getClaims().claim("groups", groups);
                }
            }
        };
    }
}
