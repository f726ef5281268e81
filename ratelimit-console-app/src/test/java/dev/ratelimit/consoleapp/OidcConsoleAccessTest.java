package dev.ratelimit.consoleapp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.console.access.ConsoleOperator;
import dev.ratelimit.console.access.ConsoleRole;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.security.oauth2.client.authentication.OAuth2AuthenticationToken;
import org.springframework.security.oauth2.core.oidc.OidcIdToken;
import org.springframework.security.oauth2.core.oidc.user.DefaultOidcUser;

/** The claim mapping of the single sign-on, on ID tokens as providers write them. */
class OidcConsoleAccessTest {

    private static final ConsoleOidcProperties DEFAULTS = new ConsoleOidcProperties(
            "preferred_username", "groups", "ratelimit-viewer", "ratelimit-operator");

    @Test
    void theStrongestValueWins() {
        assertThat(access(Map.of("groups", List.of("ratelimit-viewer", "ratelimit-operator:shop", "ratelimit-operator"))))
                .isEqualTo(ConsoleOperator.ofEveryModule("olga"));
        assertThat(access(Map.of("groups", List.of("ratelimit-viewer", "ratelimit-operator:shop", "ratelimit-operator:billing"))))
                .isEqualTo(new ConsoleOperator("olga", ConsoleRole.OPERATOR, Set.of("shop", "billing")));
        assertThat(access(Map.of("groups", List.of("staff", "ratelimit-viewer"))))
                .isEqualTo(new ConsoleOperator("olga", ConsoleRole.VIEWER, Set.of()));
    }

    @Test
    void noConsoleValueNoAccess() {
        assertThat(access(Map.of("groups", List.of("staff", "ratelimit-operator:", "ratelimit-operators")))).isNull();
        assertThat(access(Map.of())).isNull();
        assertThat(new OidcConsoleAccess(DEFAULTS).access(new MockHttpServletRequest())).as("not signed in").isNull();
    }

    @Test
    void aSingleStringIsOneValue() {
        assertThat(access(Map.of("groups", "ratelimit-viewer"))).isEqualTo(new ConsoleOperator("olga", ConsoleRole.VIEWER, Set.of()));
    }

    @Test
    void withoutTheNameClaimTheSubjectNamesTheOperator() {
        MockHttpServletRequest request = signedIn("4f1c9b2e", Map.of("groups", List.of("ratelimit-operator")), false);

        assertThat(new OidcConsoleAccess(DEFAULTS).operator(request)).isEqualTo("4f1c9b2e");
    }

    @Test
    void theClaimsAreConfigurable() {
        ConsoleOidcProperties keycloakRoles = new ConsoleOidcProperties("email", "roles", "console-read", "console-admin");
        MockHttpServletRequest request = signedIn("4f1c9b2e", Map.of("email", "olga@example.com",
                "roles", List.of("console-admin:shop")), true);

        assertThat(new OidcConsoleAccess(keycloakRoles).access(request))
                .isEqualTo(new ConsoleOperator("olga@example.com", ConsoleRole.OPERATOR, Set.of("shop")));
    }

    private static ConsoleOperator access(Map<String, Object> claims) {
        return new OidcConsoleAccess(DEFAULTS).access(signedIn("4f1c9b2e", claims, true));
    }

    /** A request of a user signed in with an ID token of subject {@code subject}, named olga when {@code named}. */
    private static MockHttpServletRequest signedIn(String subject, Map<String, Object> claims, boolean named) {
        Map<String, Object> all = new HashMap<>(claims);
        all.put("sub", subject);
        if (named) {
            all.putIfAbsent("preferred_username", "olga");
        }
        OidcIdToken token = new OidcIdToken("token", Instant.now(), Instant.now().plusSeconds(60), all);
        DefaultOidcUser user = new DefaultOidcUser(List.of(), token);
        MockHttpServletRequest request = new MockHttpServletRequest();
        request.setUserPrincipal(new OAuth2AuthenticationToken(user, List.of(), "sso"));
        return request;
    }
}
