package dev.ratelimit.interceptor.autoconfigure;

import dev.ratelimit.interceptor.web.RejectionMessages;
import java.util.Map;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.io.ClassPathResource;

/**
 * Appends the limiter's message bundle to {@code spring.messages.basename}, so the app's
 * {@code MessageSource} knows the limiter's messages and labels while the app's own bundles come
 * first and win on any key they also define.
 */
public class MessagesBasenameEnvironmentPostProcessor implements EnvironmentPostProcessor, Ordered {

    static final String PROPERTY = "spring.messages.basename";
    static final String DEFAULT_BASENAME = "messages";

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        String current = environment.getProperty(PROPERTY);
        if (current == null) {
            // Boot's default basename; naming it when it does not exist makes every lookup log a warning.
            current = new ClassPathResource(DEFAULT_BASENAME + ".properties").exists() ? DEFAULT_BASENAME : "";
        }
        if (current.contains(RejectionMessages.BUNDLE)) {
            return;
        }
        String merged = current.isBlank() ? RejectionMessages.BUNDLE : current + "," + RejectionMessages.BUNDLE;
        environment.getPropertySources().addFirst(new MapPropertySource("ratelimitMessages", Map.of(PROPERTY, merged)));
    }

    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }
}
