package dev.ratelimit.interceptor.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SysConfigParserTest {

    private final List<String> warnings = new ArrayList<>();

    @Test
    void readsEveryKindOfField() {
        RuleSnapshot snapshot = parse(Map.of(
                "global.check", "0", "log.check", "off",
                "demo.A.b.check", "0", "demo.A.b.count", "7", "demo.A.b.interval", "30",
                "dyn.demo.Open.x", "60", "dynuri./api/**", "5/10",
                "whitelist.ips", "10.0.0.0/8"));

        assertThat(snapshot.globalCheck()).isFalse();
        assertThat(snapshot.logCheck()).isFalse();
        assertThat(snapshot.override("demo.A.b")).isEqualTo(new RuleOverride(false, 7L, 30L));
        assertThat(snapshot.dynamicRule("demo.Open.x")).isEqualTo(new LimitSpec(1, 60));
        assertThat(snapshot.uriRule("/api/v1/x")).isEqualTo(new UriRule("/api/**", new LimitSpec(5, 10)));
        assertThat(warnings).isEmpty();
    }

    @Test
    void ignoresBadValuesWithAWarningEachAndKeepsTheRest() {
        RuleSnapshot snapshot = parse(Map.of(
                "global.check", "yes please", "demo.A.b.count", "-3", "demo.A.b.interval", "20",
                "dyn.demo.Open.x", "5/", "dynuri.api/**", "5/10", "dynuri./a/{id", "1",
                "dynuri./ok", "99999999999999999999"));

        assertThat(snapshot.globalCheck()).isTrue();
        assertThat(snapshot.override("demo.A.b")).isEqualTo(new RuleOverride(true, null, 20L));
        assertThat(snapshot.dynamicRules()).isEmpty();
        assertThat(snapshot.uriRules()).isEmpty();
        assertThat(warnings).hasSize(6).allSatisfy(warning -> assertThat(warning).startsWith("ignoring config field"));
    }

    @Test
    void mostSpecificPatternWins() {
        RuleSnapshot snapshot = parse(Map.of("dynuri./**", "1", "dynuri./api/**", "2", "dynuri./api/*/items", "3",
                "dynuri./api/orders/items", "4"));

        assertThat(snapshot.uriRule("/api/orders/items").pattern()).isEqualTo("/api/orders/items");
        assertThat(snapshot.uriRule("/api/users/items").pattern()).isEqualTo("/api/*/items");
        assertThat(snapshot.uriRule("/api/users").pattern()).isEqualTo("/api/**");
        assertThat(snapshot.uriRule("/health").pattern()).isEqualTo("/**");
    }

    @Test
    void limitSpecsParseBothFormsAndExplainMistakes() {
        assertThat(LimitSpec.parse(" 30 ")).isEqualTo(new LimitSpec(1, 30));
        assertThat(LimitSpec.parse("5/60")).isEqualTo(new LimitSpec(5, 60));
        assertThat(LimitSpec.parse("5/60").format()).isEqualTo("5/60");
        assertThatThrownBy(() -> LimitSpec.parse("0/60")).hasMessageContaining("'0/60'");
        assertThatThrownBy(() -> LimitSpec.parse("a/b/c")).hasMessageContaining("<count>/<interval>");
        assertThatThrownBy(() -> LimitSpec.parse("")).hasMessageContaining("got nothing");
    }

    private RuleSnapshot parse(Map<String, String> hash) {
        return SysConfigParser.parse(hash, 1, Instant.EPOCH, warnings::add);
    }
}
