package dev.ratelimit.interceptor.actuate;

import dev.ratelimit.interceptor.config.document.RuleDocuments;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;

/**
 * Actuator endpoint {@code ratelimitrules}: what operators set of this app's rules, as the YAML document
 * the console imports ({@code RulesDocument}). Read only; expose it with
 * {@code management.endpoints.web.exposure.include}.
 */
@Endpoint(id = "ratelimitrules")
public class RateLimitRulesEndpoint {

    static final String YAML = "application/yaml";

    private final RuleDocuments documents;

    public RateLimitRulesEndpoint(RuleDocuments documents) {
        this.documents = documents;
    }

    @ReadOperation(produces = YAML)
    public String rules() {
        return documents.export();
    }
}
