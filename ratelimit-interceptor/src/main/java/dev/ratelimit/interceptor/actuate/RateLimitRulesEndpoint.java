package dev.ratelimit.interceptor.actuate;

import dev.ratelimit.interceptor.config.document.RuleDocuments;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;

/**
 * Actuator endpoint {@code ratelimitrules}: what operators set of this app's rules, as the YAML document
 * the console imports ({@code RulesDocument}). Read only; expose it with
 * {@code management.endpoints.web.exposure.include}. The sections that name clients (the whitelist, each
 * rule's exceptions) show as {@code management.endpoint.ratelimitrules.show-values} says, never by default:
 * hidden, they read {@code '******'}, which an import refuses. The document is one to import, so the app's
 * {@code SanitizingFunction}s, which could change a value, do not apply to it.
 */
@Endpoint(id = "ratelimitrules")
public class RateLimitRulesEndpoint {

    static final String YAML = "application/yaml";

    private final RuleDocuments documents;
    private final EndpointShowValues show;

    public RateLimitRulesEndpoint(RuleDocuments documents, EndpointShowValues show) {
        this.documents = documents;
        this.show = show;
    }

    /** Where there is no user to authorize (JMX): {@code when-authorized} shows the clients, as Spring Boot does. */
    @ReadOperation(produces = YAML)
    public String rules() {
        return documents.export(show.shown());
    }

    /** Over the web ({@link RateLimitRulesEndpointWebExtension}): as the request's user is authorized. */
    String rules(SecurityContext user) {
        return documents.export(show.shown(user));
    }
}
