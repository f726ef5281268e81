package dev.ratelimit.interceptor.method;

import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;

/**
 * Says once, when the app has made its beans, that the {@code @RateLimit} declarations of its controllers do
 * not apply, in an app without the limiter's web layer (a reactive app, say): otherwise every request to a
 * limited handler would run, silently. Reads the beans' classes only; makes no bean, and says nothing when no
 * controller declares a limit.
 */
public final class UnappliedLimits implements SmartInitializingSingleton {

    private static final Logger log = LoggerFactory.getLogger(UnappliedLimits.class);
    /** Enough to recognise the app's own; the count says how many more. */
    private static final int NAMED = 10;

    private final ConfigurableListableBeanFactory beans;
    private final String reason;

    /** @param reason why the web layer is not installed, for the log */
    public UnappliedLimits(ConfigurableListableBeanFactory beans, String reason) {
        this.beans = beans;
        this.reason = reason;
    }

    @Override
    public void afterSingletonsInstantiated() {
        List<String> declared = LimitedBeans.controllerDeclarations(beans);
        if (declared.isEmpty()) {
            return;
        }
        String named = String.join(", ", declared.subList(0, Math.min(NAMED, declared.size())))
                + (declared.size() > NAMED ? ", ..." : "");
        log.warn("Rate limiter: no web layer, {}; the {} @RateLimit declaration(s) of this app's controllers do not "
                + "apply, every request to them runs (bean methods' limits do apply): {}", reason, declared.size(), named);
    }
}
