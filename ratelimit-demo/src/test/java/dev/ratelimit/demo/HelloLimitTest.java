package dev.ratelimit.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;

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
 * How an app tests its own limits with {@code ratelimit-test}: counters in the test's process
 * ({@code ratelimit.store=memory}), every counter reset before each test ({@link ResetRateLimits}), the
 * limit of an endpoint asserted through MockMvc ({@link EndpointLimit}). Both tests use up the same
 * user's limit: without the reset, whichever runs second would fail.
 */
@SpringBootTest(properties = "ratelimit.store=memory")
@ResetRateLimits
class HelloLimitTest {

    @Autowired
    private WebApplicationContext app;

    private MockMvc mvc;

    @BeforeEach
    void mockMvc() {
        mvc = MockMvcBuilders.webAppContextSetup(app).build();
    }

    @Test
    void helloAdmitsThreeRequestsPerUserInTenSeconds() throws Exception {
        MockHttpServletResponse refused = EndpointLimit.of(mvc, () -> get("/api/hello").param("usercode", "me"))
                .admitsExactly(3);

        assertThat(refused.getContentAsString()).contains("\"ratelimit\":1");
    }

    @Test
    void eachUserHasALimitOfItsOwn() throws Exception {
        EndpointLimit.of(mvc, () -> get("/api/hello").param("usercode", "me")).admitsExactly(3);
        EndpointLimit.of(mvc, () -> get("/api/hello").param("usercode", "you")).admitsExactly(3);
    }
}
