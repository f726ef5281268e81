package dev.ratelimit.consoleapp;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How the signed-in user of the single sign-on becomes an operator of the console: the claim that
 * names them and the claim whose values give their role. Used only when an OAuth2 client registration
 * ({@code spring.security.oauth2.client.registration.*}) is configured.
 *
 * @param nameClaim  the claim the audit trail records them by; without it, the provider's user name
 *                   attribute ({@code sub} unless {@code spring.security.oauth2.client.provider.<id>.user-name-attribute}
 *                   says otherwise)
 * @param rolesClaim the claim that holds their groups or roles: a list of strings, or one string
 * @param viewer     the value that makes them a viewer
 * @param operator   the value that makes them an operator of every module; {@code <operator>:<module>}
 *                   makes them an operator of that module (several such values, of several modules)
 */
@ConfigurationProperties("ratelimit.console.oidc")
record ConsoleOidcProperties(
        @DefaultValue("preferred_username") String nameClaim,
        @DefaultValue("groups") String rolesClaim,
        @DefaultValue("ratelimit-viewer") String viewer,
        @DefaultValue("ratelimit-operator") String operator) {
}
