package dev.ratelimit.interceptor.autoconfigure;

import dev.ratelimit.interceptor.method.UnappliedLimits;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.NoneNestedConditions;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;

/**
 * In an app that is not a servlet web application (a batch job, a message consumer, a reactive app), where the
 * limiter limits bean methods but has no web layer ({@link RateLimitWebMvcAutoConfiguration}): a warning at
 * start-up when the app's controllers declare limits, since those do not apply there.
 */
@AutoConfiguration
@Conditional(NonServletAppAutoConfiguration.NotServletWebApplication.class)
@ConditionalOnProperty(prefix = "ratelimit", name = "enabled", matchIfMissing = true)
public class NonServletAppAutoConfiguration {

    @Bean
    static UnappliedLimits rateLimitUnappliedLimits(ConfigurableListableBeanFactory beans) {
        return new UnappliedLimits(beans, "as this app is not a servlet web application (spring.main."
                + "web-application-type is none or reactive, or Spring MVC is not on the classpath)");
    }

    static class NotServletWebApplication extends NoneNestedConditions {

        NotServletWebApplication() {
            super(ConfigurationPhase.REGISTER_BEAN);
        }

        @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
        static class ServletWebApplication {
        }
    }
}
