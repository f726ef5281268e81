package dev.ratelimit.test;

import java.util.function.Supplier;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.RequestBuilder;

/**
 * Asserts the limit of an endpoint through {@link MockMvc}, where the limiter runs as it does in the
 * app (same interceptor, same store):
 *
 * <pre>{@code
 * EndpointLimit.of(mockMvc, () -> get("/api/hello").param("usercode", "me")).admitsExactly(3);
 * }</pre>
 *
 * sends the request {@code n} times, each of which must not be refused with 429, then once more, which
 * must be: a 429 with a {@code Retry-After}. The requests count, so reset the limits between tests
 * ({@link ResetRateLimits}).
 */
public final class EndpointLimit {

    private static final int TOO_MANY_REQUESTS = 429;

    private final MockMvc mvc;
    private final Supplier<? extends RequestBuilder> request;

    private EndpointLimit(MockMvc mvc, Supplier<? extends RequestBuilder> request) {
        this.mvc = mvc;
        this.request = request;
    }

    /** @param request builds one request (a builder is used once, so a new one each time) */
    public static EndpointLimit of(MockMvc mvc, Supplier<? extends RequestBuilder> request) {
        return new EndpointLimit(mvc, request);
    }

    /** @return the refusal, for further assertions (its body, its {@code RateLimit} headers) */
    public MockHttpServletResponse admitsExactly(int count) throws Exception {
        for (int i = 1; i <= count; i++) {
            MockHttpServletResponse response = send();
            if (response.getStatus() == TOO_MANY_REQUESTS) {
                throw new AssertionError("expected the endpoint to admit " + count + " requests, but request " + i
                        + " was refused with 429: " + response.getContentAsString());
            }
        }
        MockHttpServletResponse refused = send();
        if (refused.getStatus() != TOO_MANY_REQUESTS) {
            throw new AssertionError("expected request " + (count + 1) + " to be refused with 429 after " + count
                    + " admitted, but it got " + refused.getStatus());
        }
        if (refused.getHeader("Retry-After") == null) {
            throw new AssertionError("the 429 after " + count + " requests has no Retry-After header");
        }
        return refused;
    }

    private MockHttpServletResponse send() throws Exception {
        return mvc.perform(request.get()).andReturn().getResponse();
    }
}
