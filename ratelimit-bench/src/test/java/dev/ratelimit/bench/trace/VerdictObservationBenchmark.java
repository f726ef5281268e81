package dev.ratelimit.bench.trace;

import dev.ratelimit.bench.InProcessDecisions;
import dev.ratelimit.interceptor.RateLimit;
import dev.ratelimit.interceptor.decision.Verdict;
import dev.ratelimit.interceptor.rule.Endpoint;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import io.micrometer.tracing.otel.bridge.OtelBaggageManager;
import io.micrometer.tracing.otel.bridge.OtelCurrentTraceContext;
import io.micrometer.tracing.otel.bridge.OtelTracer;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What the verdict observation adds to one allowed decision ({@link RequestLimiter#decide}), side by side
 * in one run: with no observation registry (the default: Micrometer's no-op), with a registry nobody
 * listens to, and with Micrometer Tracing over the OpenTelemetry SDK recording every decision as a span
 * (sampling everything, or one trace in ten as Spring Boot does by default; spans batched to an exporter
 * that drops them, as an OTLP exporter runs off the request thread). The store is in process
 * ({@link InProcessDecisions}), so the figures are the decision's CPU, not a Redis round trip. Run by
 * {@code ratelimit-bench/trace-overhead.sh}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 10, time = 1)
@Fork(2)
public class VerdictObservationBenchmark {

    /** How decisions are observed. */
    public enum Tracing {
        /** {@code ObservationRegistry.NOOP}: an app without Micrometer Observation set up. */
        OFF,
        /** A registry without handlers: observations are made and dropped. */
        NO_HANDLER,
        /** Micrometer Tracing, OpenTelemetry bridge and SDK: every decision a recorded span. */
        OTEL,
        /**
         * The same, sampling one trace in ten, Spring Boot's default
         * ({@code management.tracing.sampling.probability=0.1}): most decisions are spans that record nothing.
         */
        OTEL_SAMPLED
    }

    @Param
    public Tracing tracing;

    private SdkTracerProvider tracerProvider;
    private InProcessDecisions decisions;
    private Endpoint endpoint;

    @Setup(Level.Trial)
    public void start() {
        decisions = new InProcessDecisions(Orders.class, InProcessDecisions::noMetrics, registry());
        endpoint = decisions.endpoint("create");
    }

    private ObservationRegistry registry() {
        return switch (tracing) {
            case OFF -> ObservationRegistry.NOOP;
            case NO_HANDLER -> ObservationRegistry.create();
            case OTEL, OTEL_SAMPLED -> {
                Sampler sampler = tracing == Tracing.OTEL ? Sampler.alwaysOn()
                        : Sampler.parentBased(Sampler.traceIdRatioBased(0.1));
                tracerProvider = SdkTracerProvider.builder().setSampler(sampler)
                        .addSpanProcessor(BatchSpanProcessor.builder(new DroppingExporter()).build()).build();
                OtelCurrentTraceContext context = new OtelCurrentTraceContext();
                OtelTracer tracer = new OtelTracer(tracerProvider.get("ratelimit-bench"), context, event -> { },
                        new OtelBaggageManager(context, List.of(), List.of()));
                ObservationRegistry registry = ObservationRegistry.create();
                registry.observationConfig().observationHandler(new DefaultTracingObservationHandler(tracer));
                yield registry;
            }
        };
    }

    @TearDown(Level.Trial)
    public void stop() {
        if (tracerProvider != null) {
            tracerProvider.close();
        }
        decisions.close();
    }

    /** An allowed decision of a fixed window (the limit is never reached), the user cycling over 1,024. */
    @Benchmark
    public Verdict allowedDecision() {
        Verdict verdict = decisions.decide(endpoint);
        if (verdict.kind() != Verdict.Kind.ADMIT) {
            throw new IllegalStateException("the benchmark's limit was reached: " + verdict);
        }
        return verdict;
    }

    /** The controller whose limit is decided. */
    public static class Orders {
        @RateLimit(count = 1_000_000_000, interval = 60)
        public String create() {
            return "ok";
        }
    }

    /** Takes every batch and keeps nothing: the cost of the span, not of a collector. */
    private static final class DroppingExporter implements SpanExporter {

        @Override
        public CompletableResultCode export(Collection<SpanData> spans) {
            return CompletableResultCode.ofSuccess();
        }

        @Override
        public CompletableResultCode flush() {
            return CompletableResultCode.ofSuccess();
        }

        @Override
        public CompletableResultCode shutdown() {
            return CompletableResultCode.ofSuccess();
        }
    }
}
