package dev.ratelimit.console.policy;

import dev.ratelimit.console.access.ConsoleAccessPolicy;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

/**
 * An app with its own console access (standing in for its real security: a header set by a test) whose
 * component scan reaches the console's packages.
 */
@SpringBootApplication(scanBasePackages = "dev.ratelimit.console")
public class OpsTeamApplication {

    static final String HEADER = "X-Test-Operator";

    @Bean
    ConsoleAccessPolicy opsTeamOnly() {
        return request -> "ops-team".equals(request.getHeader(HEADER)) ? "ops-team" : null;
    }
}
