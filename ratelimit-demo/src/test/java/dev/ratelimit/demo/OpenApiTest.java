package dev.ratelimit.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.autoconfigure.RateLimitProperties;
import dev.ratelimit.interceptor.openapi.RateLimitOpenApi;
import dev.ratelimit.interceptor.rule.EndpointCatalog;
import dev.ratelimit.interceptor.testsupport.HttpProbe;
import io.swagger.parser.OpenAPIParser;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import io.swagger.v3.parser.core.models.ParseOptions;
import io.swagger.v3.parser.core.models.SwaggerParseResult;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

/**
 * The demo's OpenAPI description (springdoc, {@code /v3/api-docs}) as a client generator reads it:
 * valid for the swagger-parser validator, and every operation a limit can refuse documents that refusal:
 * the 429, its body, its headers, and the declared limits in {@code x-ratelimit}.
 */
class OpenApiTest {

    @Test
    void everyLimitedOperationDocumentsItsRefusalAndTheDescriptionIsValid() {
        OpenAPI api = apiDocs();

        Operation hello = api.getPaths().get("/api/hello").getGet();
        ApiResponse refusal = hello.getResponses().get("429");
        assertThat(refusal).as("the 429 of /api/hello").isNotNull();
        assertThat(refusal.getHeaders()).containsKeys("Retry-After", "RateLimit", "RateLimit-Policy");
        assertThat(refusal.getContent()).containsOnlyKeys("application/json");
        assertThat(refusal.getContent().get("application/json").getSchema().get$ref())
                .isEqualTo("#/components/schemas/RateLimitRejection");
        assertThat(api.getComponents().getSchemas().get("RateLimitRejection").getRequired())
                .containsExactlyInAnyOrder("error", "successful", "ratelimit", "retryAfter");
        assertThat(hello.getResponses().get("200").getHeaders()).as("admitted responses carry the fields too")
                .containsKeys("RateLimit", "RateLimit-Policy");
        assertThat(hello.getExtensions().get("x-ratelimit")).isEqualTo(Map.of("demo.DemoController.hello", Map.of(
                "count", 3, "windowSeconds", 10, "dimension", "USER", "algorithm", "FIXED_WINDOW")));

        ApiResponse tooHeavy = api.getPaths().get("/api/batch").getPost().getResponses().get("400");
        assertThat(tooHeavy).as("a batch heavier than its limit").isNotNull();
        assertThat(tooHeavy.getContent().get("application/json").getSchema().get$ref())
                .isEqualTo("#/components/schemas/RateLimitTooCostly");
        assertThat(hello.getResponses()).as("no cost expression, no 400; policy local, no 503")
                .doesNotContainKeys("400", "503");

        Map<?, ?> sms = (Map<?, ?>) api.getPaths().get("/api/sms").getGet().getExtensions().get("x-ratelimit");
        assertThat(sms.keySet().stream().map(String::valueOf)).as("both limits of /api/sms").containsExactlyInAnyOrder("demo.DemoController.sms#user",
                "demo.DemoController.sms#ip");
        Operation export = api.getPaths().get("/api/exports/run").getGet();
        assertThat(export.getResponses().get("429").getHeaders()).as("a concurrency limit: no rate limit fields")
                .containsOnlyKeys("Retry-After");
        assertThat(export.getResponses().get("200").getHeaders()).isNullOrEmpty();
        assertThat(export.getExtensions().get("x-ratelimit")).isEqualTo(Map.of("demo.ExportController.run", Map.of(
                "count", 2, "windowSeconds", 10, "dimension", "USER", "algorithm", "CONCURRENCY")));
        assertThat(api.getPaths().get("/api/generate").getGet().getExtensions().get("x-ratelimit"))
                .isEqualTo(Map.of("demo.GenerateController.generate", Map.of("count", 2000, "windowSeconds", 60,
                        "dimension", "USER", "algorithm", "TOKEN_BUCKET", "cost", "100", "costFromResponse", "#reported")));
        Operation open = api.getPaths().get("/api/open").getGet();
        assertThat(open.getResponses()).as("no limit, no 429").doesNotContainKey("429");
        assertThat(open.getExtensions()).isNull();
        assertThat(api.getPaths().keySet()).noneMatch(path -> path.startsWith("/ratelimit-console"));
    }

    @Test
    void aProblemBodyIsDocumentedAsAProblem() {
        OpenAPI api = apiDocs("--ratelimit.response.body=problem");

        Map<String, ApiResponse> hello = api.getPaths().get("/api/hello").getGet().getResponses();
        assertThat(hello.get("429").getContent().get("application/problem+json").getSchema().get$ref())
                .isEqualTo("#/components/schemas/RateLimitProblem");
        assertThat(api.getPaths().get("/api/batch").getPost().getResponses().get("400").getContent())
                .containsOnlyKeys("application/problem+json");
        assertThat(api.getComponents().getSchemas().get("RateLimitProblem").getProperties())
                .containsKeys("type", "title", "status", "detail", "instance", "retryAfter", "policy", "cost", "limit");
        assertThat(api.getComponents().getSchemas()).doesNotContainKey("RateLimitRejection");
    }

    /**
     * Under the failure policy that refuses while Redis is away ({@code closed}), a limited operation
     * also documents that 503. Built as the auto-configuration builds it for that policy, from the running
     * demo's catalog, so that the demo itself runs the shipped policy.
     */
    @Test
    void theRefusalOfTheClosedFailurePolicyIsDocumented() {
        try (ConfigurableApplicationContext demo = SpringApplication.run(DemoApplication.class, "--server.port=0")) {
            HandlerMethod hello = demo.getBean("requestMappingHandlerMapping", RequestMappingHandlerMapping.class)
                    .getHandlerMethods().values().stream()
                    .filter(handler -> handler.getBeanType() == DemoController.class
                            && handler.getMethod().getName().equals("hello"))
                    .findFirst().orElseThrow();
            RateLimitOpenApi closed = new RateLimitOpenApi(demo.getBean(EndpointCatalog.class),
                    demo.getBean(RateLimitProperties.class).responseOptions(), true);

            ApiResponse unavailable = closed.customize(new Operation().responses(new ApiResponses()), hello)
                    .getResponses().get("503");

            assertThat(unavailable).isNotNull();
            assertThat(unavailable.getHeaders()).containsKey("Retry-After");
            assertThat(unavailable.getContent().get("application/json").getSchema().get$ref())
                    .isEqualTo("#/components/schemas/RateLimitRejection");
        }
    }

    /** The demo's description, parsed and validated: a message of the validator fails the test. */
    private static OpenAPI apiDocs(String... arguments) {
        String[] all = new String[arguments.length + 1];
        all[0] = "--server.port=0";
        System.arraycopy(arguments, 0, all, 1, arguments.length);
        String json;
        try (ConfigurableApplicationContext demo = SpringApplication.run(DemoApplication.class, all)) {
            HttpProbe http = new HttpProbe(Integer.parseInt(demo.getEnvironment().getProperty("local.server.port")));
            json = http.get("/v3/api-docs").body();
        }
        ParseOptions options = new ParseOptions();
        options.setResolve(true);
        SwaggerParseResult result = new OpenAPIParser().readContents(json, null, options);
        assertThat(result.getMessages()).as("the validator's messages on\n%s", json).isEmpty();
        return result.getOpenAPI();
    }
}
