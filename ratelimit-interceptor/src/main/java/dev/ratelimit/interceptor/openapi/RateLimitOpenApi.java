package dev.ratelimit.interceptor.openapi;

import dev.ratelimit.interceptor.config.LimitDescription;
import dev.ratelimit.interceptor.rule.Endpoint;
import dev.ratelimit.interceptor.rule.EndpointCatalog;
import dev.ratelimit.interceptor.web.HandlerEndpoints;
import dev.ratelimit.interceptor.web.RejectionBody;
import dev.ratelimit.interceptor.web.ResponseOptions;
import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.headers.Header;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springdoc.core.customizers.OperationCustomizer;
import org.springframework.web.method.HandlerMethod;

/**
 * Documents the limits in the app's OpenAPI description (springdoc): every operation a limit can refuse
 * gets that refusal, a response of {@code ratelimit.response.status} (429) with the body of
 * {@code ratelimit.response.body} and the {@code Retry-After}, {@code RateLimit} and
 * {@code RateLimit-Policy} headers, and the extension {@code x-ratelimit} with its declared limits by rule,
 * each as the API index describes it ({@code LimitDescription});
 * its successful responses get the {@code RateLimit} fields when the app sends them on admitted
 * requests (neither for an operation whose only limits are concurrency limits, which have no quota per
 * window to describe). An operation with a cost expression also gets the 400 of a request heavier than
 * the whole limit, and, when the failure policy refuses while Redis is away ({@code closed}), every limited one
 * gets that 503. Rules an operator adds at run time ({@code dyn}, {@code dynuri}) are not in it: the
 * description is made from the code.
 */
public class RateLimitOpenApi implements OpenApiCustomizer, OperationCustomizer {

    static final String EXTENSION = "x-ratelimit";
    private static final String REJECTION = "RateLimitRejection";
    private static final String TOO_COSTLY = "RateLimitTooCostly";
    private static final String PROBLEM = "RateLimitProblem";
    private static final String COMPONENTS = "#/components/";
    private static final String RETRY_AFTER = "Retry-After";
    private static final String RATE_LIMIT = "RateLimit";
    private static final String RATE_LIMIT_POLICY = "RateLimit-Policy";
    private static final List<String> LEGACY = List.of("X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset");

    private final EndpointCatalog catalog;
    private final ResponseOptions options;
    private final boolean refusesWhileRedisIsAway;

    /** @param refusesWhileRedisIsAway whether the failure policy refuses limited requests with 503 ({@code closed}) */
    public RateLimitOpenApi(EndpointCatalog catalog, ResponseOptions options, boolean refusesWhileRedisIsAway) {
        this.catalog = catalog;
        this.options = options;
        this.refusesWhileRedisIsAway = refusesWhileRedisIsAway;
    }

    /** The schema of the refusal's body and the rate limit headers, once, for the operations to refer to. */
    @Override
    public void customise(OpenAPI openApi) {
        if (openApi.getComponents() == null) {
            openApi.setComponents(new Components());
        }
        Components components = openApi.getComponents();
        if (options.body() == RejectionBody.PROBLEM) {
            components.addSchemas(PROBLEM, problemSchema());
        } else {
            components.addSchemas(REJECTION, rejectionSchema());
            components.addSchemas(TOO_COSTLY, tooCostlySchema());
        }
        components.addHeaders(RETRY_AFTER, header("Seconds to wait before a request may be admitted, rounded up",
                new IntegerSchema().format("int64").minimum(BigDecimal.ZERO)));
        components.addHeaders(RATE_LIMIT, header("The limit closest to its end (draft-ietf-httpapi-ratelimit-headers): "
                + "requests left r and seconds t until one is admitted again (r = 0) or the quota is whole",
                new StringSchema().example("\"OrderController.create#user\";r=0;t=42")));
        components.addHeaders(RATE_LIMIT_POLICY, header("Every limit that counted the request: its quota q per window "
                + "w seconds", new StringSchema().example("\"OrderController.create#user\";q=5;w=60")));
        if (options.legacyHeaders()) {
            components.addHeaders(LEGACY.get(0), header("The quota of the limit closest to its end", new IntegerSchema()));
            components.addHeaders(LEGACY.get(1), header("Requests left", new IntegerSchema()));
            components.addHeaders(LEGACY.get(2), header("Seconds from now until the quota is whole", new IntegerSchema()));
        }
    }

    @Override
    public Operation customize(Operation operation, HandlerMethod handler) {
        Endpoint endpoint = HandlerEndpoints.of(catalog, handler);
        if (endpoint == null || endpoint.limits().isEmpty()) {
            return operation;
        }
        if (operation.getResponses() == null) {
            operation.setResponses(new ApiResponses());
        }
        // A concurrency limit has no quota per window for the rate limit fields to describe.
        boolean fields = endpoint.limits().stream().anyMatch(limit -> !limit.isConcurrency());
        if (options.headersOnAllowed() && fields) {
            operation.getResponses().forEach((status, response) -> {
                if (status.startsWith("2")) {
                    rateLimitHeaders(response);
                }
            });
        }
        ApiResponse rejection = refusal("Too many requests: a rate limit refused the request", REJECTION, true);
        addResponse(operation, Integer.toString(options.status()), fields ? rateLimitHeaders(rejection) : rejection);
        if (endpoint.limits().stream().anyMatch(limit -> limit.cost().isExpression())) {
            addResponse(operation, "400", refusal("The request weighs more than a rate limit's whole count "
                    + "(its cost expression): it could never be admitted", TOO_COSTLY, false));
        }
        if (refusesWhileRedisIsAway) {
            addResponse(operation, "503", refusal("The rate limits cannot be decided (Redis does not answer) and "
                    + "the failure policy refuses (ratelimit.redis-failure.mode=closed)", REJECTION, true));
        }
        Map<String, LimitDescription> declared = new LinkedHashMap<>();
        endpoint.limits().forEach(limit -> declared.put(limit.id().toString(), LimitDescription.of(limit)));
        operation.addExtension(EXTENSION, declared);
        return operation;
    }

    /** Adds {@code response} unless the operation documents that status already. */
    private static void addResponse(Operation operation, String status, ApiResponse response) {
        if (!operation.getResponses().containsKey(status)) {
            operation.getResponses().addApiResponse(status, response);
        }
    }

    /** @param jsonSchema the body's schema with the JSON body; with the problem body, always the problem */
    private ApiResponse refusal(String description, String jsonSchema, boolean retryAfter) {
        String schema = options.body() == RejectionBody.PROBLEM ? PROBLEM : jsonSchema;
        ApiResponse refusal = new ApiResponse().description(description).content(new Content().addMediaType(
                options.body().contentType(), new MediaType().schema(new Schema<>().$ref(COMPONENTS + "schemas/" + schema))));
        if (retryAfter) {
            refusal.addHeaderObject(RETRY_AFTER, new Header().$ref(COMPONENTS + "headers/" + RETRY_AFTER));
        }
        return refusal;
    }

    private ApiResponse rateLimitHeaders(ApiResponse response) {
        List<String> names = new ArrayList<>(List.of(RATE_LIMIT, RATE_LIMIT_POLICY));
        if (options.legacyHeaders()) {
            names.addAll(LEGACY);
        }
        names.forEach(name -> response.addHeaderObject(name, new Header().$ref(COMPONENTS + "headers/" + name)));
        return response;
    }

    private static Schema<?> problemSchema() {
        ObjectSchema schema = new ObjectSchema();
        schema.description("An RFC 9457 problem: a rate limit refused the request, or could not decide it")
                .addProperty("type", new StringSchema().example("about:blank"))
                .addProperty("title", new StringSchema().example("Too Many Requests"))
                .addProperty("status", new IntegerSchema().example(429))
                .addProperty("detail", new StringSchema().description("The refusal, in the request's language"))
                .addProperty("instance", new StringSchema().description("The request's path"))
                .addProperty("retryAfter", new IntegerSchema().format("int64").description("Seconds to wait"))
                .addProperty("policy", new StringSchema().description("The rule that refused"))
                .addProperty("cost", new IntegerSchema().format("int64").description("What the request weighed (400)"))
                .addProperty("limit", new IntegerSchema().format("int64").description("The count it is above (400)"));
        schema.setRequired(List.of("type", "title", "status", "detail"));
        return schema;
    }

    private static Schema<?> rejectionSchema() {
        ObjectSchema schema = new ObjectSchema();
        schema.description("A rate limit refused the request (ratelimit 1), or the limiter could not decide (0)")
                .addProperty("error", new StringSchema().description("The refusal, in the request's language"))
                .addProperty("successful", new IntegerSchema().example(0))
                .addProperty("ratelimit", new IntegerSchema().example(1))
                .addProperty("retryAfter", new IntegerSchema().format("int64").description("Seconds to wait"));
        schema.setRequired(List.of("error", "successful", "ratelimit", "retryAfter"));
        return schema;
    }

    private static Schema<?> tooCostlySchema() {
        ObjectSchema schema = new ObjectSchema();
        schema.description("The request weighs more than a rate limit's whole count: waiting would not help")
                .addProperty("error", new StringSchema().description("The refusal, in the request's language"))
                .addProperty("successful", new IntegerSchema().example(0))
                .addProperty("ratelimit", new IntegerSchema().example(1))
                .addProperty("cost", new IntegerSchema().format("int64").description("What the request weighed"))
                .addProperty("limit", new IntegerSchema().format("int64").description("The count it is above"));
        schema.setRequired(List.of("error", "successful", "ratelimit", "cost", "limit"));
        return schema;
    }

    private static Header header(String description, Schema<?> schema) {
        return new Header().description(description).schema(schema);
    }
}
