package dev.ratelimit.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.bench.redis.RedisDecisionBenchmark;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import org.junit.jupiter.api.Test;

/**
 * The build writes the list of benchmarks JMH runs (its annotation processor): without it {@code bench.sh}
 * finds no benchmark at all, which no smoke test of a contender would notice.
 */
class BenchmarkListTest {

    @Test
    void theBuildListsTheBenchmarks() throws IOException {
        StringBuilder lists = new StringBuilder();
        // The test classes have a list of their own (empty), ahead of the main one on the classpath.
        for (URL list : Collections.list(getClass().getClassLoader().getResources("META-INF/BenchmarkList"))) {
            try (InputStream in = list.openStream()) {
                lists.append(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            }
        }
        assertThat(lists).as("the benchmark lists on the classpath").contains(RedisDecisionBenchmark.class.getName());
    }
}
