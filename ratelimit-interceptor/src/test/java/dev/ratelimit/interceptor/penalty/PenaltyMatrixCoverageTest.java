package dev.ratelimit.interceptor.penalty;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.RateLimit;
import dev.ratelimit.interceptor.rule.Endpoint;
import dev.ratelimit.interceptor.rule.EndpointCatalog;
import dev.ratelimit.interceptor.rule.RuleNaming;
import dev.ratelimit.interceptor.testsupport.ShippedDefaults;
import java.lang.reflect.Method;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.core.annotation.MergedAnnotation;

/**
 * What keeps the penalty matrix ({@link PenaltyMatrixContract}) whole: every attribute of {@code @RateLimit} is a
 * kind of limit of it or said to be none, every kind of endpoint that counts is one, and what a kind leaves out
 * of the algorithms is what the library refuses to declare. A new attribute, kind of endpoint or algorithm fails
 * here or in the matrix until it is covered.
 */
class PenaltyMatrixCoverageTest {

    @Test
    void everyAttributeOfRateLimitIsAKindOfTheMatrixOrSaidToBeNone() {
        Set<String> kinds = Stream.of(LimitKind.values()).map(LimitKind::attribute).filter(Objects::nonNull)
                .collect(Collectors.toSet());
        Set<String> attributes = Stream.of(RateLimit.class.getDeclaredMethods()).map(Method::getName)
                .collect(Collectors.toSet());

        assertThat(attributes).as("attributes of @RateLimit").containsExactlyInAnyOrderElementsOf(Stream.concat(kinds.stream(), LimitKind.NOT_KINDS.stream()).toList());
    }

    @Test
    void everyKindOfEndpointThatCountsIsAKindOfTheMatrix() {
        assertThat(Stream.of(LimitKind.values()).map(LimitKind::endpoint).collect(Collectors.toSet()))
                .containsExactlyInAnyOrder(Endpoint.Kind.values());
    }

    /**
     * Each kind's fixture on a fixed window (every kind takes it), declared again with each other algorithm as a
     * rule in code: accepted where the kind takes the algorithm, refused where the matrix leaves it out. Not for
     * {@link Algorithm#CONCURRENCY}, which no rule in code takes, whatever its kind.
     */
    @ParameterizedTest
    @EnumSource(LimitKind.class)
    void whatAKindLeavesOutIsWhatTheLibraryRefuses(LimitKind kind) {
        RateLimit fixture = fixture(kind);
        for (Algorithm algorithm : EnumSet.complementOf(EnumSet.of(Algorithm.CONCURRENCY))) {
            Map<String, Object> attributes = new HashMap<>(MergedAnnotation.from(fixture).asMap());
            attributes.put("algorithm", algorithm);
            attributes.put("key", ""); // a rule in code counts the identity each call names
            RateLimit declared = MergedAnnotation.of(RateLimit.class, attributes).synthesize();
            EndpointCatalog catalog = new EndpointCatalog(new RuleNaming("fixture"), EnumSet.allOf(Algorithm.class),
                    key -> { }, expression -> { }, expression -> { }, ShippedDefaults.LEASE);
            if (kind.algorithms().contains(algorithm)) {
                assertThatCode(() -> catalog.registerRule("the matrix", declared)).as("%s on %s", kind, algorithm)
                        .doesNotThrowAnyException();
            } else {
                assertThatThrownBy(() -> catalog.registerRule("the matrix", declared)).as("%s on %s", kind, algorithm)
                        .isInstanceOfAny(IllegalStateException.class, IllegalArgumentException.class);
            }
        }
    }

    /** The {@code @RateLimit} of a kind's fixture on a fixed window. */
    private static RateLimit fixture(LimitKind kind) {
        if (kind == LimitKind.CODE) {
            return new PenalizedRules().penaltyCodeFixedWindow().annotation();
        }
        String rule = "penalty-" + kind.fixture() + "-" + Algorithm.FIXED_WINDOW;
        return Stream.of(PenalizedController.class, PenalizedCalls.class).flatMap(type -> Stream.of(type.getMethods()))
                .map(method -> method.getAnnotation(RateLimit.class)).filter(Objects::nonNull)
                .filter(annotation -> annotation.rule().equals(rule)).findFirst().orElseThrow();
    }
}
