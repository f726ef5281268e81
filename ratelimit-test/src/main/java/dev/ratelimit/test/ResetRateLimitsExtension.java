package dev.ratelimit.test;

import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.springframework.test.context.junit.jupiter.SpringExtension;

/** What {@link ResetRateLimits} runs before each test: resets the limits of the test's application context. */
public final class ResetRateLimitsExtension implements BeforeEachCallback {

    @Override
    public void beforeEach(ExtensionContext context) {
        RateLimitCounters.reset(SpringExtension.getApplicationContext(context));
    }
}
