package dev.ratelimit.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.testsupport.HttpProbe;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.EventData;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The quick start's rejection on a trace, with Micrometer Tracing over a real OpenTelemetry SDK: the limiter's
 * decision is one span inside the request's, named after its rule, with the documented attributes and an
 * event for the refusal; never the client's identity.
 */
class TracingTest {

    @Test
    void theRejectionOfTheQuickStartIsOneSpanInsideTheRequestsWithItsRuleOutcomeAndRefusal() {
        try (ConfigurableApplicationContext demo = new SpringApplicationBuilder(DemoApplication.class, Spans.class)
                // Every trace kept: what this test is about (the default keeps one in ten).
                .run("--server.port=0", "--management.tracing.sampling.probability=1.0")) {
            HttpProbe http = new HttpProbe(Integer.parseInt(demo.getEnvironment().getProperty("local.server.port")));
            for (int i = 0; i < 3; i++) {
                assertThat(http.status("/api/hello?usercode=tracer")).isEqualTo(200);
            }
            assertThat(http.status("/api/hello?usercode=tracer")).isEqualTo(429);
            demo.getBean(SdkTracerProvider.class).forceFlush().join(10, TimeUnit.SECONDS);

            List<SpanData> spans = demo.getBean(InMemorySpanExporter.class).getFinishedSpanItems();
            List<SpanData> decisions = spans.stream().filter(span -> span.getName().startsWith("ratelimit")).toList();
            assertThat(decisions).as("one decision per request").hasSize(4);
            SpanData rejection = decisions.get(3);
            assertThat(rejection.getName()).isEqualTo("ratelimit DemoController.hello");
            assertThat(rejection.getAttributes().asMap()).containsEntry(AttributeKey.stringKey("ratelimit.module"), "demo")
                    .containsEntry(AttributeKey.stringKey("ratelimit.rule"), "DemoController.hello")
                    .containsEntry(AttributeKey.stringKey("ratelimit.outcome"), "blocked")
                    .containsEntry(AttributeKey.stringKey("ratelimit.store"), "redis");
            assertThat(rejection.getAttributes().asMap().values()).as("never the identity")
                    .noneMatch(value -> value.toString().contains("tracer"));
            assertThat(rejection.getEvents()).extracting(EventData::getName).containsExactly("ratelimit.refused");
            assertThat(decisions.subList(0, 3)).allSatisfy(admitted -> {
                assertThat(admitted.getAttributes().get(AttributeKey.stringKey("ratelimit.outcome"))).isEqualTo("allowed");
                assertThat(admitted.getEvents()).isEmpty();
            });

            SpanData request = spans.stream().filter(span -> span.getSpanId().equals(rejection.getParentSpanId()))
                    .findFirst().orElseThrow(() -> new AssertionError("no parent span among " + spans));
            assertThat(request.getTraceId()).isEqualTo(rejection.getTraceId());
            assertThat(request.getAttributes().get(AttributeKey.stringKey("status"))).isEqualTo("429");
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class Spans {

        @Bean
        InMemorySpanExporter inMemorySpanExporter() {
            return InMemorySpanExporter.create();
        }
    }
}
