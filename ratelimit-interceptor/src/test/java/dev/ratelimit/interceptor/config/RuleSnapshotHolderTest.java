package dev.ratelimit.interceptor.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class RuleSnapshotHolderTest {

    private final AtomicReference<Map<String, String>> hash = new AtomicReference<>(Map.of());
    private final AtomicReference<RuntimeException> failure = new AtomicReference<>();
    private final RuleSnapshotHolder holder = new RuleSnapshotHolder(() -> {
        if (failure.get() != null) {
            throw failure.get();
        }
        return hash.get();
    }, Duration.ofHours(1), Duration.ofSeconds(1), Clock.systemUTC());

    @Test
    void aFailedRefreshKeepsTheLastGoodSnapshot() {
        hash.set(Map.of("global.check", "0"));
        assertThat(holder.refresh()).isTrue();
        RuleSnapshot good = holder.current();

        failure.set(new IllegalStateException("Redis is away"));
        assertThat(holder.refresh()).isFalse();

        assertThat(holder.current()).isSameAs(good);
        assertThat(holder.current().globalCheck()).isFalse();
    }

    @Test
    void aFirstLoadThatFailsLeavesTheDefaults() {
        failure.set(new IllegalStateException("Redis is away"));
        assertThat(holder.refresh()).isFalse();
        assertThat(holder.current()).isEqualTo(RuleSnapshot.defaults());
    }

    @Test
    void aNewSnapshotOnlyWhenTheContentChangesWithTheHashsVersion() {
        holder.refresh();
        RuleSnapshot first = holder.current();
        holder.refresh();
        assertThat(holder.current()).isSameAs(first);

        hash.set(Map.of("dyn.m.C.x", "5", "config.version", "8"));
        holder.refresh();
        assertThat(holder.current()).isNotSameAs(first);
        assertThat(holder.current().version()).isEqualTo(8);
    }
}
