package dev.ratelimit.interceptor.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.Dimension;
import dev.ratelimit.interceptor.identity.DenyList;
import dev.ratelimit.interceptor.rule.RuleId;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
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
        assertThat(snapshot.override(RuleId.of("demo", "A.b"))).isEqualTo(new RuleOverride(Map.of(Knob.CHECK, "0", Knob.COUNT, "7", Knob.WINDOW, "30")));
        assertThat(snapshot.dynamicRules().get("demo.Open.x")).isEqualTo(new LimitSpec(1, 60));
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
        assertThat(snapshot.override(RuleId.of("demo", "A.b"))).isEqualTo(new RuleOverride(Map.of(Knob.WINDOW, "20")));
        assertThat(snapshot.dynamicRules()).isEmpty();
        assertThat(snapshot.uriRules()).isEmpty();
        assertThat(warnings).hasSize(6).allSatisfy(warning -> assertThat(warning).startsWith("ignoring config field"));
    }

    @Test
    void readsPlansAndExceptionsAndIgnoresEndedOrBadOnes() {
        Instant now = Instant.parse("2026-12-01T00:00:00Z");
        RuleSnapshot snapshot = SysConfigParser.parse(Map.of(
                "demo.A.b.plan.pro", "50/60", "demo.A.b.plan.broken", "fifty",
                "demo.A.b.exception.alice", "500/60 until 2030-01-01T00:00:00Z",
                "demo.A.b.exception.10.0.0.7", "5/1 until 2030-01-01T00:00:00Z",
                "demo.A.b.exception.count", "9/9 until 2030-01-01T00:00:00Z",
                "demo.A.b.exception.bob", "500/60 until 2020-01-01T00:00:00Z",
                "demo.A.b.exception.carl", "500/60"), now, warnings::add);

        assertThat(snapshot.plan(RuleId.of("demo", "A.b"), "pro")).isEqualTo(new LimitSpec(50, 60));
        assertThat(snapshot.plan(RuleId.of("demo", "A.b"), "broken")).isNull();
        assertThat(snapshot.exception(RuleId.of("demo", "A.b"), "alice", now)).isEqualTo(
                new IdentityException(500, 60, Instant.parse("2030-01-01T00:00:00Z")));
        assertThat(snapshot.exception(RuleId.of("demo", "A.b"), "10.0.0.7", now).count()).as("an identity with dots").isEqualTo(5);
        assertThat(snapshot.exception(RuleId.of("demo", "A.b"), "count", now).count()).as("not the rule's count knob").isEqualTo(9);
        assertThat(snapshot.override(RuleId.of("demo", "A.b")).value(Knob.COUNT)).isNull();
        assertThat(snapshot.exception(RuleId.of("demo", "A.b"), "alice", Instant.parse("2030-01-01T00:00:00Z")))
                .as("ended since the snapshot was read").isNull();
        assertThat(snapshot.ignored()).containsOnlyKeys("demo.A.b.plan.broken", "demo.A.b.exception.bob",
                "demo.A.b.exception.carl");
        assertThat(snapshot.ignored().get("demo.A.b.exception.bob")).contains("ended");
    }

    @Test
    void aRulesPenaltyFieldGivesItsPenalty() {
        RuleSnapshot snapshot = parse(Map.of("demo.A.b.penalty", "300..3600", "demo.A.c.penalty", "0",
                "demo.A.d.penalty", "soon"));

        assertThat(snapshot.override(RuleId.of("demo", "A.b")).value(Knob.PENALTY)).isEqualTo("300..3600");
        assertThat(snapshot.override(RuleId.of("demo", "A.c")).value(Knob.PENALTY)).isEqualTo("0");
        assertThat(snapshot.override(RuleId.of("demo", "A.d")).value(Knob.PENALTY)).isNull();
        assertThat(snapshot.ignored()).containsOnlyKeys("demo.A.d.penalty");
    }

    @Test
    void exceptionsBeyondTheBoundAreIgnored() {
        Map<String, String> hash = new HashMap<>();
        for (int i = 0; i <= SysConfigParser.MAX_EXCEPTIONS; i++) {
            hash.put("demo.A.b.exception.user" + i, "5/60 until 2030-01-01T00:00:00Z");
        }

        RuleSnapshot snapshot = parse(hash);

        assertThat(snapshot.exceptions().get("demo.A.b")).hasSize(SysConfigParser.MAX_EXCEPTIONS);
        assertThat(snapshot.ignored()).hasSize(1).allSatisfy((field, reason) -> assertThat(reason).contains("10000"));
    }

    @Test
    void readsTheDenyListAndIgnoresABadEntryWithOneWarningAndAnEndedOneSilently() {
        Instant now = Instant.parse("2026-12-01T00:00:00Z");
        RuleSnapshot snapshot = SysConfigParser.parse(Map.of(
                "deny.ip.203.0.113.7", "forever", "deny.ip.2001:db8::/32", "2026-12-03T10:00:00Z scraping",
                "deny.user.mallory", "forever", "deny.key.tenant-7", "2030-01-01T00:00:00Z",
                "deny.user.gone", "2026-11-30T00:00:00Z", "deny.ip.not-an-address", "forever",
                "deny.user.eve", "next week", "deny.user.", "forever"), now, warnings::add);

        DenyList denyList = snapshot.denyList();
        assertThat(denyList.entries()).extracting(DenyList.Entry::target)
                .containsExactly("2001:db8::/32", "203.0.113.7", "tenant-7", "mallory");
        assertThat(denyList.address("2001:db8:1::9", Clock.fixed(now, ZoneOffset.UTC)).note()).isEqualTo("scraping");
        assertThat(denyList.user("gone", Clock.fixed(now, ZoneOffset.UTC))).as("ended before it was read").isNull();
        assertThat(snapshot.ignored()).containsOnlyKeys("deny.ip.not-an-address", "deny.user.eve", "deny.user.");
        assertThat(warnings).hasSize(3).anySatisfy(warning -> assertThat(warning)
                .isEqualTo("ignoring config field 'deny.user.eve' = 'next week': a deny-list entry is forever or the "
                        + "instant it ends, e.g. 2026-12-03T10:00:00Z, optionally followed by a space and a note"));
    }

    @Test
    void denyListEntriesBeyondTheBoundAreIgnoredByNameWithOneWarning() {
        Map<String, String> hash = new HashMap<>();
        for (int i = 0; i <= DenyList.MAX_ENTRIES; i++) {
            hash.put("deny.user.u" + (100_000 + i), "forever");
        }

        RuleSnapshot snapshot = parse(hash);

        assertThat(snapshot.denyList().size()).isEqualTo(DenyList.MAX_ENTRIES);
        assertThat(snapshot.ignored()).containsOnlyKeys("deny.user.u110000")
                .containsValue("more than 10000 entries in the deny list: remove some first");
        assertThat(warnings).hasSize(1);
    }

    /** What the console once saved and the limiter silently lowered to q=1;w=9007199254740. */
    @Test
    void aCountAndWindowTheLimiterCouldNotApplyAreIgnoredTogetherAndShownWithTheReason() {
        RuleSnapshot snapshot = parse(Map.of("demo.A.b.count", "5", "demo.A.b.interval", "99999999999999",
                "declared.demo.A.c.interval", "86400", "demo.A.c.count", "9000000000",
                "demo.A.d.count", "9", "declared.demo.A.d.interval", "60"));

        assertThat(snapshot.override(RuleId.of("demo", "A.b"))).isEqualTo(RuleOverride.NONE);
        assertThat(snapshot.override(RuleId.of("demo", "A.c"))).isEqualTo(RuleOverride.NONE);
        assertThat(snapshot.override(RuleId.of("demo", "A.d"))).isEqualTo(new RuleOverride(Map.of(Knob.COUNT, "9")));
        assertThat(snapshot.ignored()).containsOnlyKeys("demo.A.b.count", "demo.A.b.interval", "demo.A.c.count")
                .containsEntry("demo.A.b.interval", "a window is at most 366 days (31622400 s), got 99999999999999 s")
                .containsEntry("demo.A.c.count", "count 9000000000 per 86400 s is too large: at most 104249991 per 86400 s");
        assertThat(warnings).hasSize(3);
    }

    @Test
    void aRuleWhoseSizeIsIgnoredKeepsItsOtherKnobs() {
        RuleSnapshot snapshot = parse(Map.of("demo.A.b.check", "0", "demo.A.b.mode", "shadow", "demo.A.b.count", "5",
                "demo.A.b.interval", "99999999999999"));

        assertThat(snapshot.override(RuleId.of("demo", "A.b")))
                .isEqualTo(new RuleOverride(Map.of(Knob.CHECK, "0", Knob.MODE, "shadow")));
        assertThat(snapshot.ignored()).containsOnlyKeys("demo.A.b.count", "demo.A.b.interval");
    }

    @Test
    void declaredValuesAreNotRules() {
        RuleSnapshot snapshot = parse(Map.of("declared.demo.A.b.count", "3", "declared.demo.A.b.check", "1"));

        assertThat(snapshot.overrides()).isEmpty();
        assertThat(warnings).isEmpty();
    }

    @Test
    void readsModesAndWhitelists() {
        RuleSnapshot snapshot = parse(Map.of(
                "global.mode", "SHADOW", "demo.A.b.mode", " shadow ", "demo.A.c.mode", "enforce",
                "whitelist.ips", " 10.0.0.0/8,, 2001:db8::/32 ,192.0.2.7", "whitelist.users", "ops, auditor"));

        assertThat(snapshot.globalMode()).isEqualTo(RuleMode.SHADOW);
        assertThat(snapshot.shadowRules()).containsExactly("demo.A.b");
        assertThat(snapshot.whitelist().ips()).extracting(Object::toString)
                .containsExactly("10.0.0.0/8", "2001:db8::/32", "192.0.2.7");
        assertThat(snapshot.whitelist().users()).containsExactlyInAnyOrder("ops", "auditor");
        assertThat(snapshot.whitelist().containsIp("10.200.0.1")).isTrue();
        assertThat(snapshot.whitelist().containsIp("2001:db8:ffff::1")).isTrue();
        assertThat(snapshot.whitelist().containsIp("192.0.2.8")).isFalse();
        assertThat(warnings).isEmpty();
    }

    @Test
    void aRuleIsInShadowModeWhenItOrEverythingIs() {
        RuleSnapshot one = parse(Map.of("demo.A.b.mode", "shadow"));
        RuleSnapshot all = parse(Map.of("global.mode", "shadow", "demo.A.b.mode", "enforce"));

        assertThat(one.shadow(RuleId.of("demo", "A.b"))).isTrue();
        assertThat(one.shadow(RuleId.of("demo", "A.c"))).isFalse();
        assertThat(all.shadow(RuleId.of("demo", "A.b"))).isTrue();
        assertThat(RuleSnapshot.defaults().anyShadow()).isFalse();
    }

    @Test
    void badModesAndWhitelistEntriesAreIgnoredOneByOne() {
        RuleSnapshot snapshot = parse(Map.of("global.mode", "loud", "demo.A.b.mode", "",
                "whitelist.ips", "10.0.0.0/8, intranet, 10.0.0.0/40, 192.0.2.1\u0000\n"));

        assertThat(snapshot.globalMode()).isEqualTo(RuleMode.ENFORCE);
        assertThat(snapshot.shadowRules()).isEmpty();
        assertThat(snapshot.whitelist().ips()).extracting(Object::toString).containsExactly("10.0.0.0/8");
        assertThat(warnings).containsExactlyInAnyOrder(
                "ignoring config field 'global.mode' = 'loud': a mode is 'enforce' or 'shadow'",
                "ignoring config field 'demo.A.b.mode' = '': a mode is 'enforce' or 'shadow'",
                "ignoring 'intranet' in config field 'whitelist.ips': not an IP address or CIDR block",
                "ignoring '10.0.0.0/40' in config field 'whitelist.ips': not an IP address or CIDR block",
                "ignoring '192.0.2.1?' in config field 'whitelist.ips': not an IP address or CIDR block");
    }

    @Test
    void aPatternWhoseRegularExpressionDoesNotCompileIsIgnored() {
        RuleSnapshot snapshot = parse(Map.of("dynuri./a/{id:[0-9+}", "1", "dynuri./a/{id:[0-9]+}", "2"));

        assertThat(snapshot.uriRules()).extracting(UriRule::pattern).containsExactly("/a/{id:[0-9]+}");
        assertThat(snapshot.uriRule("/a/42").limit()).isEqualTo(new LimitSpec(1, 2));
        assertThat(warnings).singleElement().asString().contains("URL pattern does not compile");
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
        assertThat(LimitSpec.parse(" 5/60  IP ")).isEqualTo(new LimitSpec(5, 60, Dimension.IP, Algorithm.FIXED_WINDOW));
        assertThat(LimitSpec.parse("5/60 ip").format()).isEqualTo("5/60 ip");
        assertThat(LimitSpec.parse("100/60 method token_bucket").format()).isEqualTo("100/60 method token_bucket");
        assertThat(LimitSpec.parse("5/60 user fixed_window").format()).as("defaults left out").isEqualTo("5/60");
        assertThatThrownBy(() -> LimitSpec.parse("5/60 global")).hasMessage(
                "a rule set in the config hash counts per user, ip or method (the endpoint as a whole), got 'global'");
        assertThatThrownBy(() -> LimitSpec.parse("5/60 ip leaky")).hasMessageContaining("got 'leaky'");
        assertThatThrownBy(() -> LimitSpec.parse("5/60 ip fixed_window extra")).hasMessageContaining("got 'extra'");
        assertThatThrownBy(() -> LimitSpec.parse("5/60 ip user")).as("counted twice").hasMessageContaining("'<count>/<interval>'");
        assertThatThrownBy(() -> LimitSpec.parse("0/60")).hasMessageContaining("'0/60'");
        assertThatThrownBy(() -> LimitSpec.parse("a/b/c")).hasMessageContaining("<count>/<interval>");
        assertThatThrownBy(() -> LimitSpec.parse("")).hasMessageEndingWith("got ''");
    }

    private RuleSnapshot parse(Map<String, String> hash) {
        return SysConfigParser.parse(hash, Instant.EPOCH, warnings::add);
    }
}
