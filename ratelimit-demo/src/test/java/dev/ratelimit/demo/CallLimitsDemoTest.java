package dev.ratelimit.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

import dev.ratelimit.interceptor.RateLimitService;
import dev.ratelimit.interceptor.rule.RuleId;
import dev.ratelimit.test.EndpointLimit;
import dev.ratelimit.test.ResetRateLimits;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.context.WebApplicationContext;

/**
 * The demo's limits outside HTTP, through the endpoints that make the calls: the exchange-rate client's
 * burst of 5 then one call every 2 s (a sixth call waits for the next token, within its 3 s), and a
 * partner's 3 webhooks a minute counted from code.
 */
@SpringBootTest(properties = "ratelimit.store=memory")
@ResetRateLimits
class CallLimitsDemoTest {

    @Autowired
    private WebApplicationContext app;

    @Autowired
    private RateLimitService limits;

    private MockMvc mvc;

    @BeforeEach
    void mockMvc() {
        mvc = MockMvcBuilders.webAppContextSetup(app).build();
    }

    @Test
    void aRatesCallBeyondTheBurstWaitsForTheNextToken() throws Exception {
        RuleId fetch = RuleId.of("demo", "ExchangeRates.fetch");
        int calls = 0;
        while (limits.peek(fetch, "all").orElseThrow().remaining() > 0) {
            assertThat(mvc.perform(get("/api/rates")).andReturn().getResponse().getStatus()).isEqualTo(200);
            calls++;
        }
        assertThat(calls).as("the burst, and any token earned meanwhile").isGreaterThanOrEqualTo(5);

        assertThat(mvc.perform(get("/api/rates")).andReturn().getResponse().getStatus()).as("admitted once a token came")
                .isEqualTo(200);
        assertThat(limits.peek(fetch, "all").orElseThrow().remaining()).as("the token it waited for, taken").isZero();
    }

    @Test
    void aPartnerHasThreeWebhooksAMinute() throws Exception {
        MockHttpServletResponse refused = EndpointLimit.of(mvc, () -> post("/api/webhooks/acme")).admitsExactly(3);

        assertThat(refused.getContentAsString()).contains("\"rule\":\"demo.PartnerWebhooks\"");
        EndpointLimit.of(mvc, () -> post("/api/webhooks/globex")).admitsExactly(3);
    }
}
