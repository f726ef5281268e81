package dev.ratelimit.interceptor;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.springframework.core.annotation.MergedAnnotation;

/**
 * A rule defined in code, for code that cannot carry {@link RateLimit}: declare it as a bean, and count
 * calls against it with {@code RateLimitService.tryAcquire} or {@code acquire}, each naming the identity
 * it counts. It is exactly the {@code @RateLimit} its builder describes, checked at start-up by the same
 * code as an annotation on a method (a misdeclared one fails the start, naming the bean), and it is a rule
 * like any other: in the API index (kind {@code code}), the console, the actuator endpoint, with the
 * operators' knobs of the config hash.
 *
 * <pre>{@code
 * @Bean
 * RateLimitRule partnerCalls() {       // shop.PartnerCalls: 100 per minute per partner
 *     return RateLimitRule.named("PartnerCalls").count(100).interval(1, TimeUnit.MINUTES).build();
 * }
 * }</pre>
 *
 * <p>Its identity is what each call names, so its dimension is {@link Dimension#CUSTOM} unless another is
 * set, and it has no {@code key}; nor {@code countWhen}, {@code costExpression}, {@code plan} or
 * {@code maxWait}, which read a request or a call (the wait is an argument of {@code acquire}).
 */
public final class RateLimitRule {

    private final RateLimit annotation;

    private RateLimitRule(RateLimit annotation) {
        this.annotation = annotation;
    }

    /** A builder of the rule {@code rule}, of the app's module unless {@link Builder#module} names another. */
    public static Builder named(String rule) {
        if (rule == null || rule.isBlank()) {
            throw new IllegalArgumentException("a rule defined in code needs a name");
        }
        return new Builder(rule.strip());
    }

    /** The {@code @RateLimit} this rule is. */
    public RateLimit annotation() {
        return annotation;
    }

    @Override
    public String toString() {
        return "RateLimitRule " + annotation;
    }

    /** Sets the attributes of the {@code @RateLimit} of the same names; the others keep the annotation's defaults. */
    public static final class Builder {

        private final Map<String, Object> attributes = new HashMap<>();

        private Builder(String rule) {
            attributes.put("rule", rule);
            attributes.put("dimension", Dimension.CUSTOM);
        }

        public Builder module(String module) {
            return set("module", module);
        }

        public Builder count(long count) {
            return set("count", count);
        }

        public Builder interval(long interval, TimeUnit unit) {
            set("interval", interval);
            return set("unit", unit);
        }

        public Builder dimension(Dimension dimension) {
            return set("dimension", dimension);
        }

        public Builder algorithm(Algorithm algorithm) {
            return set("algorithm", algorithm);
        }

        /** In the unit of {@link #interval}; {@code penaltyMax} 0 for every block the same. */
        public Builder penalty(long penalty, long penaltyMax) {
            set("penalty", penalty);
            return set("penaltyMax", penaltyMax);
        }

        public Builder cost(long cost) {
            return set("cost", cost);
        }

        /** @param zone the period's time zone, e.g. {@code "Europe/Paris"}; empty for {@code ratelimit.quota.zone} */
        public Builder quota(QuotaPeriod quota, String zone) {
            set("quota", quota);
            return set("zone", zone);
        }

        public RateLimitRule build() {
            return new RateLimitRule(MergedAnnotation.of(RateLimit.class, attributes).synthesize());
        }

        private Builder set(String attribute, Object value) {
            if (value == null) {
                throw new IllegalArgumentException(attribute + " must not be null");
            }
            attributes.put(attribute, value);
            return this;
        }
    }
}
