package dev.ratelimit.interceptor.method;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratelimit.interceptor.Dimension;
import dev.ratelimit.interceptor.RateLimit;
import dev.ratelimit.interceptor.RateLimitRule;
import dev.ratelimit.interceptor.testsupport.RedisWithApps;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

/**
 * A misdeclared limit of a call fails the application's start, naming what declares it: a bean method's
 * key that does not parse, a rule defined in code that no call could pass. Found when every bean exists,
 * before the app serves anything.
 */
class MisdeclaredCallLimitTest {

    @RegisterExtension
    static final RedisWithApps env = new RedisWithApps();

    @Test
    void aBeanMethodsKeyThatDoesNotParseFailsTheStartNamingTheMethod() {
        assertThatThrownBy(() -> env.start(UnparsableKeyApp.class))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("Invalid @RateLimit on " + UnparsableKeyClient.class.getName() + ".send: ")
                .hasMessageContaining("key expression '#partner +' does not parse");
    }

    @Test
    void aRuleDefinedInCodeNoCallCouldPassFailsTheStartNamingTheBean() {
        assertThatThrownBy(() -> env.start(ImpossibleRuleApp.class))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("Invalid @RateLimit on RateLimitRule bean 'impossible': cost 3 is above count 2: no request "
                        + "could ever pass");
    }

    static class UnparsableKeyClient {

        @RateLimit(count = 5, dimension = Dimension.CUSTOM, key = "#partner +")
        public void send(String partner) {
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(UnparsableKeyClient.class)
    static class UnparsableKeyApp {
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class ImpossibleRuleApp {

        @Bean
        RateLimitRule impossible() {
            return RateLimitRule.named("Impossible").count(2).cost(3).build();
        }
    }
}
