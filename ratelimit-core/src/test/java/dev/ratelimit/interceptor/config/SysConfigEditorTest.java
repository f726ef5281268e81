package dev.ratelimit.interceptor.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratelimit.interceptor.store.RedisKeys;
import dev.ratelimit.interceptor.identity.DenyList;
import dev.ratelimit.interceptor.rule.RuleId;
import dev.ratelimit.interceptor.testsupport.RedisServerProcess;
import io.lettuce.core.RedisClient;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import java.lang.reflect.Method;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The operators' write API against a real Redis: validation first, canonical values, old values, announcements. */
class SysConfigEditorTest {

    private static final String HASH = "ratelimit:sysconfig";
    private static final String CHANNEL = "ratelimit:config-changed";

    private static RedisServerProcess redis;
    private static RedisClient subscriberClient;
    private static StatefulRedisPubSubConnection<String, String> subscriber;
    private static final BlockingQueue<String> announcements = new LinkedBlockingQueue<>();
    private static SysConfigEditor editor;

    @BeforeAll
    static void start() {
        redis = RedisServerProcess.start();
        editor = new SysConfigEditor(new SysConfigRepository(redis.connection().backgroundWork(),
                new RedisKeys("ratelimit")), Clock.systemUTC());
        subscriberClient = RedisClient.create("redis://127.0.0.1:" + redis.port());
        subscriber = subscriberClient.connectPubSub();
        subscriber.addListener(new RedisPubSubAdapter<>() {
            @Override
            public void message(String channel, String message) {
                announcements.add(message);
            }
        });
        subscriber.sync().subscribe(CHANNEL);
    }

    @AfterAll
    static void stop() {
        subscriber.close();
        subscriberClient.shutdown();
        redis.close();
    }

    @BeforeEach
    void emptyRedis() throws InterruptedException {
        redis.commands().del(HASH);
        // What every app writes at start-up: a hash Redis does not hold is written by no editor (see below).
        redis.commands().hset(HASH, "config.version", "1");
        // Announcements of the previous test may still be on their way; they all come before this one.
        redis.commands().publish(CHANNEL, "-- next test --");
        while (!nextAnnouncement().equals("-- next test --")) {
            continue;
        }
    }

    @Test
    void plansAndExceptionsAreWrittenInCanonicalFormAndRefusedWhenBad() {
        Instant until = Instant.now().plus(Duration.ofDays(7)).truncatedTo(ChronoUnit.SECONDS);
        declare(RuleId.of("shop", "Api.search"));

        assertThat(editor.setPlanLimit(RuleId.of("shop", "Api.search"), "pro", "50/60").newValue()).isEqualTo("50/60");
        assertThat(editor.setException(RuleId.of("shop", "Api.search"), "alice@example.com", "500/60", until).newValue())
                .isEqualTo("500/60 until " + until);
        assertThat(redis.commands().hget(HASH, "shop.Api.search.exception.alice@example.com"))
                .isEqualTo("500/60 until " + until);

        assertThatThrownBy(() -> editor.setPlanLimit(RuleId.of("shop", "Api.search"), "pro plan", "5/60"))
                .hasMessageContaining("is not a plan name");
        assertThatThrownBy(() -> editor.setException(RuleId.of("shop", "Api.search"), "al ice", "5/60", until))
                .hasMessageContaining("is not a client identity");
        assertThatThrownBy(() -> editor.setException(RuleId.of("shop", "Api.search"), "bob", "5/60", Instant.now().minusSeconds(1)))
                .hasMessageContaining("the exception ended");
        assertThatThrownBy(() -> editor.setPlanLimit(RuleId.of("shop", "Api.search"), "free", "0/60")).hasMessageContaining("at least 1");
        assertThat(editor.removeException(RuleId.of("shop", "Api.search"), "alice@example.com").oldValue()).isEqualTo("500/60 until " + until);
        assertThat(editor.removePlanLimit(RuleId.of("shop", "Api.search"), "pro").oldValue()).isEqualTo("50/60");
    }

    @Test
    void aDenyIsWrittenCanonicallyAnnouncedAndRemovesEndedEntriesInTheSameWrite() throws Exception {
        Instant until = Instant.now().plus(Duration.ofHours(1)).truncatedTo(ChronoUnit.SECONDS);
        redis.commands().hset(HASH, Map.of("deny.user.old", "2020-01-01T00:00:00Z", "deny.user.broken", "soon"));

        List<SysConfigChange> changes = editor.deny(DenyList.Kind.IP, " 2001:DB8:0:0:1::7/64 ", until, " scraping ");

        assertThat(changes).containsExactly(
                new SysConfigChange("deny.ip.2001:db8::/64", null, until + " scraping"),
                new SysConfigChange("deny.user.old", "2020-01-01T00:00:00Z", null));
        assertThat(nextAnnouncement()).isEqualTo("deny.ip.2001:db8::/64");
        assertThat(redis.commands().hgetall(HASH)).containsKeys("deny.ip.2001:db8::/64", "deny.user.broken")
                .doesNotContainKey("deny.user.old");
        assertThat(editor.deny(DenyList.Kind.USER, "mallory", null, "")).containsExactly(
                new SysConfigChange("deny.user.mallory", null, "forever"));
        assertThat(editor.undeny(DenyList.Kind.USER, "mallory"))
                .isEqualTo(new SysConfigChange("deny.user.mallory", "forever", null));

        assertRefused(() -> editor.deny(DenyList.Kind.IP, "10.0.0.300", null, ""),
                "deny.ip: '10.0.0.300' is not an IP address or CIDR block");
        assertRefused(() -> editor.deny(DenyList.Kind.KEY, "two words", null, ""),
                "deny.key: 'two words' is not a client identity: 1 to 512 printable characters without spaces");
        assertRefused(() -> editor.deny(DenyList.Kind.USER, "eve", Instant.parse("2020-01-01T00:00:00Z"), ""),
                "deny.user.eve: the end 2020-01-01T00:00:00Z is not in the future");
        assertRefused(() -> editor.deny(DenyList.Kind.USER, "eve", null, "x".repeat(201)),
                "deny.user.eve: a note is one line of at most 200 characters: no line breaks or other control characters");
        assertRefused(() -> editor.setRuleSwitch(RuleId.of("deny", "ip"), false),
                "'deny.ip' is not a rule id: deny.ip., deny.user. and deny.key. name deny-list entries");
        assertThat(redis.commands().hexists(HASH, "deny.user.eve")).isFalse();
    }

    @Test
    void theDenyListIsRefusedBeyondItsBoundButEndedEntriesDoNotCount() {
        Map<String, String> full = new HashMap<>();
        for (int i = 0; i < DenyList.MAX_ENTRIES; i++) {
            full.put("deny.user.u" + i, "forever");
        }
        redis.commands().hset(HASH, full);

        assertRefused(() -> editor.deny(DenyList.Kind.USER, "one-more", null, ""),
                "deny.user.one-more: more than 10000 entries in the deny list: remove some first");
        assertThat(editor.deny(DenyList.Kind.USER, "u7", null, "again")).as("an entry in force changes")
                .extracting(SysConfigChange::newValue).containsExactly("forever again");

        redis.commands().hset(HASH, "deny.user.u0", "2020-01-01T00:00:00Z");

        assertThat(editor.deny(DenyList.Kind.USER, "one-more", null, "")).extracting(SysConfigChange::field)
                .containsExactly("deny.user.one-more", "deny.user.u0");
        assertThat(redis.commands().hlen(HASH)).isEqualTo(DenyList.MAX_ENTRIES + 1); // and config.version
    }

    /**
     * A rule's count whatever set it: a {@code dyn} or {@code dynuri} rule keeps its other parts; an annotated rule
     * gets its knob.
     */
    @Test
    void aRulesCountIsSetWhereverItsLimitComesFrom() {
        RuleId dynamic = RuleId.of("shop", "OrderController.list");
        editor.setDynamicRule(dynamic, "5/60 ip sliding_window");
        assertThat(editor.edit().ruleCount(dynamic, " 12 ").apply())
                .containsExactly(new SysConfigChange("dyn.shop.OrderController.list", "5/60 ip sliding_window",
                        "12/60 ip sliding_window"));
        assertThatThrownBy(() -> editor.edit().ruleCount(dynamic, "0")).hasMessageContaining("at least 1");

        RuleId annotated = RuleId.of("shop", "Api.search");
        declare(annotated);
        assertThat(editor.edit().ruleCount(annotated, "7").apply()).extracting(SysConfigChange::field, SysConfigChange::newValue)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("shop.Api.search.count", "7"));
        assertThat(redis.commands().hexists(HASH, "dyn.shop.Api.search")).isFalse();

        editor.edit().uriRule("/open/**", "20/10 ip").apply();
        assertThat(editor.edit().ruleCount(RuleId.of("shop", "/open/**"), "30").apply())
                .containsExactly(new SysConfigChange("dynuri./open/**", "20/10 ip", "30/10 ip"));
        assertThat(redis.commands().hexists(HASH, "shop./open/**.count")).isFalse();
    }

    @Test
    void aWriteStoresTheCanonicalValueReturnsTheOldOneAndAnnouncesTheField() throws Exception {
        assertThat(editor.setDynamicRule(RuleId.of("shop", "OrderController.list"), " 30 "))
                .isEqualTo(new SysConfigChange("dyn.shop.OrderController.list", null, "1/30"));
        assertThat(nextAnnouncement()).isEqualTo("dyn.shop.OrderController.list");
        assertThat(redis.commands().hget(HASH, "dyn.shop.OrderController.list")).isEqualTo("1/30");

        assertThat(editor.setDynamicRule(RuleId.of("shop", "OrderController.list"), "5/60"))
                .isEqualTo(new SysConfigChange("dyn.shop.OrderController.list", "1/30", "5/60"));
        assertThat(editor.removeDynamicRule("shop.OrderController.list"))
                .isEqualTo(new SysConfigChange("dyn.shop.OrderController.list", "5/60", null));
        assertThat(redis.commands().hexists(HASH, "dyn.shop.OrderController.list")).isFalse();
        assertThat(List.of(nextAnnouncement(), nextAnnouncement()))
                .containsOnly("dyn.shop.OrderController.list");
    }

    @Test
    void everyKindOfFieldIsWrittenUnderItsName() {
        declare(RuleId.of("shop", "OrderController.create"));
        long startMillis = redisMillis();
        editor.setGlobalSwitch(false);
        editor.setLogSwitch(true);
        editor.setRuleSwitch(RuleId.of("shop", "OrderController.create"), false);
        editor.setRuleCount(RuleId.of("shop", "OrderController.create"), "007");
        editor.setRuleWindow(RuleId.of("shop", "OrderController.create"), "120");
        editor.setUriRule("/api/**", "2/10");
        editor.setUriRule("/api/old", "9");
        editor.removeUriRule("/api/old");
        editor.setGlobalMode(RuleMode.SHADOW);
        editor.setRuleMode(RuleId.of("shop", "OrderController.create"), RuleMode.SHADOW);
        editor.setRuleMode(RuleId.of("shop", "/api/**"), RuleMode.ENFORCE);
        editor.setWhitelistIps(" 10.0.0.0/8, ,2001:db8::/32 , 10.0.0.0/8");
        editor.setWhitelistUsers("ops, auditor ,ops");

        Map<String, String> hash = new HashMap<>(redis.commands().hgetall(HASH));
        // a logical clock: one more than before each write, and at least Redis' time in ms
        assertThat(Long.parseLong(hash.remove("config.version"))).isGreaterThanOrEqualTo(startMillis + 12);
        assertThat(hash).containsExactlyInAnyOrderEntriesOf(Map.ofEntries(
                Map.entry("declared.shop.OrderController.create.check", "1"),
                Map.entry("global.check", "0"),
                Map.entry("log.check", "1"),
                Map.entry("shop.OrderController.create.check", "0"),
                Map.entry("shop.OrderController.create.count", "7"),
                Map.entry("shop.OrderController.create.interval", "120"),
                Map.entry("dynuri./api/**", "2/10"),
                Map.entry("global.mode", "shadow"),
                Map.entry("shop.OrderController.create.mode", "shadow"),
                Map.entry("shop./api/**.mode", "enforce"),
                Map.entry("whitelist.ips", "10.0.0.0/8,2001:db8::/32"),
                Map.entry("whitelist.users", "ops,auditor")));

        editor.setWhitelistIps("");
        assertThat(redis.commands().hget(HASH, "whitelist.ips")).isEmpty();
    }

    @Test
    void noKnobPlanOrExceptionIsWrittenForARuleNothingDeclaresButOneCanBeRemoved() {
        Instant until = Instant.now().plus(Duration.ofDays(7));
        RuleId nobodys = RuleId.of("shop", "Gone.away");
        String undeclared = "'shop.Gone.away': no app declares this rule, and the config has no dyn or dynuri rule of "
                + "this name";
        redis.commands().hset(HASH, Map.of("shop.Gone.away.count", "9", "declared.shop.Other.rule.check", "1"));

        // Every setter of a rule's field but the one that declares a dyn rule: found by reflection, so a new one is in.
        List<Method> setters = Stream.of(SysConfigEditor.class.getMethods())
                .filter(method -> method.getName().startsWith("set") && !method.getName().equals("setDynamicRule"))
                .filter(method -> method.getParameterCount() > 0 && method.getParameterTypes()[0] == RuleId.class)
                .toList();
        assertThat(setters).hasSizeGreaterThanOrEqualTo(8);
        for (Method setter : setters) {
            Object[] arguments = Stream.of(setter.getParameterTypes()).map(type -> type == RuleId.class ? nobodys
                    : type == String.class ? "5" : type == boolean.class ? false : type == Instant.class ? until
                    : type == RuleMode.class ? RuleMode.SHADOW : null).toArray();
            assertThatThrownBy(() -> setter.invoke(editor, arguments)).as(setter.getName())
                    .hasRootCauseInstanceOf(IllegalArgumentException.class).hasRootCauseMessage(undeclared);
        }
        assertRefused(() -> editor.setRuleSwitch(RuleId.of("shop", "/never/**"), false), "'shop./never/**': no app "
                + "declares this rule, and the config has no dyn or dynuri rule of this name");
        assertThat(redis.commands().hgetall(HASH)).containsOnlyKeys("shop.Gone.away.count",
                "declared.shop.Other.rule.check", "config.version");

        assertThat(editor.edit().removeKnob(nobodys, Knob.COUNT).apply()).as("what is left of it can be removed")
                .containsExactly(new SysConfigChange("shop.Gone.away.count", "9", null));
        // A dyn rule is its endpoint's declaration, in the hash or in the same edit.
        assertThat(editor.edit().dynamicRule(nobodys, "5/60").ruleSwitch(nobodys, false).apply()).hasSize(2);
        assertThat(editor.setRuleMode(nobodys, RuleMode.SHADOW).newValue()).isEqualTo("shadow");
    }

    @Test
    void exceptionsAreCountedOnceAndKeptCountedThroughAnEdit() {
        declare(RuleId.of("shop", "Api.search"));
        Instant until = Instant.now().plus(Duration.ofDays(7));
        Map<String, String> almostFull = new HashMap<>();
        for (int i = 1; i < SysConfigParser.MAX_EXCEPTIONS; i++) {
            almostFull.put("shop.Api.search.exception.c" + i, "5/60 until " + until);
        }
        redis.commands().hset(HASH, almostFull);
        RuleId rule = RuleId.of("shop", "Api.search");

        SysConfigEditor.Edit edit = editor.edit().exception(rule, "last", "5/60", until)
                .exception(rule, "c1", "6/60", until) // one there already: no more of them
                .removeException(rule, "c2").exception(rule, "instead", "5/60", until)
                .removeException(rule, "instead").exception(rule, "instead-again", "5/60", until);

        assertThatThrownBy(() -> edit.exception(rule, "one-too-many", "5/60", until))
                .hasMessage("shop.Api.search.exception.one-too-many: more than 10000 exceptions: remove ended ones first");
        assertThat(edit.apply()).hasSize(5);
        assertThat(redis.commands().hkeys(HASH).stream().filter(field -> field.contains(".exception."))).hasSize(
                SysConfigParser.MAX_EXCEPTIONS);
    }

    @Test
    void refusedInputWritesAndAnnouncesNothingAndSaysWhy() throws Exception {
        declare(RuleId.of("shop", "A.b"));
        assertRefused(() -> editor.setRuleCount(RuleId.of("shop", "A.b"), "0"),
                "shop.A.b.count: expected a whole number of at least 1, got '0'");
        assertRefused(() -> editor.setRuleCount(RuleId.of("shop", "A.b"), "lots"),
                "shop.A.b.count: expected a whole number of at least 1, got 'lots'");
        assertRefused(() -> editor.setRuleWindow(RuleId.of("shop", "A.b"), "-5"),
                "shop.A.b.interval: expected a whole number of at least 1, got '-5'");
        assertRefused(() -> editor.setDynamicRule(RuleId.of("shop", "A.b"), "1/0"), "dyn.shop.A.b: a limit is '<interval>' or "
                + "'<count>/<interval>' with whole numbers of at least 1 (interval in seconds), then optionally who is "
                + "counted (user, ip, method) and the algorithm (fixed_window, sliding_window, sliding_log, token_bucket, "
                + "concurrency), "
                + "got '1/0'");
        assertRefused(() -> editor.setUriRule("api/**", "5"),
                "dynuri.api/**: a URL pattern starts with '/', has no spaces or control characters and is at most "
                        + "512 characters");
        assertRefused(() -> editor.setUriRule("/api/{id", "5"), "dynuri./api/{id: unbalanced '{' '}' in URL pattern");
        assertRefused(() -> editor.setRuleSwitch(RuleId.of("global", ""), false),
                "'global.' is not a rule id: expected <module>.<rule>, without spaces, at most 512 characters");
        assertRefused(() -> editor.setRuleSwitch(RuleId.of("shop", "A b"), false),
                "'shop.A b' is not a rule id: expected <module>.<rule>, without spaces, at most 512 characters");
        assertRefused(() -> editor.setRuleCount(RuleId.of("dyn", "shop.A.b"), "5"),
                "'dyn.shop.A.b' is not a rule id: give the id without the dyn. or dynuri. prefix");
        assertRefused(() -> editor.setDynamicRule(null, "5"), "a rule id is required");
        assertRefused(() -> editor.removeUriRule(""), "a URL pattern is required");
        assertRefused(() -> editor.setUriRule("/api/{id:[}", "5"),
                "dynuri./api/{id:[}: URL pattern does not compile: Unclosed character class near index 2");
        assertRefused(() -> editor.setWhitelistIps("10.0.0.0/8, intranet"),
                "whitelist.ips: 'intranet' is not an IP address or CIDR block");
        assertRefused(() -> editor.setRuleMode(RuleId.of("", "global"), RuleMode.SHADOW),
                "'.global' is not a rule id: expected <module>.<rule>, without spaces, at most 512 characters");
        // What the limiter could not apply as written: the annotation's own check, on the pair in force.
        assertRefused(() -> editor.setRuleLimit(RuleId.of("shop", "A.b"), "5", "99999999999999"),
                "shop.A.b: a window is at most 366 days (31622400 s), got 99999999999999 s");
        assertRefused(() -> editor.setRuleWindow(RuleId.of("shop", "A.b"), "99999999999999"),
                "shop.A.b: a window is at most 366 days (31622400 s), got 99999999999999 s");
        assertRefused(() -> editor.setRuleCount(RuleId.of("shop", "A.b"), "9007199254740993"),
                "shop.A.b: count 9007199254740993 per 1 s is too large: at most 9007199254740 per 1 s");
        assertRefused(() -> editor.resetToDeclared(RuleId.of("shop", "X.y")), "'shop.X.y': no app declares this rule");

        assertThat(redis.commands().hkeys(HASH)).containsExactlyInAnyOrder("config.version", "declared.shop.A.b.check");
        editor.setLogSwitch(false);
        assertThat(nextAnnouncement()).as("the first announcement after the refused writes").isEqualTo("log.check");
    }

    /**
     * A hash Redis lost (a flush, a restart without persistence, an eviction) is put back by the instances from
     * their copies; a write before that would be a hash of its own field alone, newer than every copy, which the
     * instances would adopt. So no write is made to a hash that is not there.
     */
    @Test
    void aWriteToAHashRedisDoesNotHoldIsRefusedAndWritesNothing() {
        redis.commands().del(HASH);

        assertRefused(() -> editor.setGlobalSwitch(false), "the config is not in Redis (Redis lost it, or no app has "
                + "started yet): nothing was written, so that the operators' other values are not lost; the "
                + "instances put it back at once, so retry in a moment");
        assertRefused(() -> editor.deny(DenyList.Kind.USER, "mallory", null, ""), "the config is not in Redis (Redis "
                + "lost it, or no app has started yet): nothing was written, so that the operators' other values are "
                + "not lost; the instances put it back at once, so retry in a moment");
        assertThat(redis.commands().exists(HASH)).isZero();
    }

    @Test
    void aCountIsCheckedWithTheWindowInForce() {
        redis.commands().hset(HASH, Map.of("declared.shop.A.b.interval", "86400", "declared.shop.A.b.check", "1"));

        assertThatThrownBy(() -> editor.setRuleCount(RuleId.of("shop", "A.b"), "200000000")).hasMessage(
                "shop.A.b: count 200000000 per 86400 s is too large: at most 104249991 per 86400 s");
        assertThat(editor.setRuleLimit(RuleId.of("shop", "A.b"), "200000000", "60"))
                .extracting(SysConfigChange::newValue).containsExactly("200000000", "60");
    }

    @Test
    void concurrentEditorsEachGetTheValueTheirWriteReplaced() throws Exception {
        declare(RuleId.of("shop", "A.b"));
        int threads = 8;
        int writesPerThread = 50;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<List<SysConfigChange>>> results = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int thread = t;
            results.add(pool.submit(() -> {
                go.await();
                List<SysConfigChange> changes = new ArrayList<>();
                for (int i = 1; i <= writesPerThread; i++) {
                    changes.add(editor.setRuleCount(RuleId.of("shop", "A.b"), Integer.toString(thread * 1000 + i)));
                }
                return changes;
            }));
        }
        go.countDown();
        Map<String, String> nextOf = new HashMap<>();
        for (Future<List<SysConfigChange>> result : results) {
            for (SysConfigChange change : result.get(30, TimeUnit.SECONDS)) {
                assertThat(nextOf.put(change.oldValue(), change.newValue()))
                        .as("two writes both replaced %s", change.oldValue()).isNull();
            }
        }
        pool.shutdown();

        // The changes form one unbroken chain from "absent" to the value in Redis: no old value was lost or seen twice.
        String value = null;
        for (int step = 0; step < threads * writesPerThread; step++) {
            assertThat(nextOf).containsKey(value);
            value = nextOf.get(value);
        }
        assertThat(redis.commands().hget(HASH, "shop.A.b.count")).isEqualTo(value);
    }

    /** What an app that declares these rules merges into the hash at start-up, in part. */
    private static void declare(RuleId... rules) {
        for (RuleId rule : rules) {
            redis.commands().hset(HASH, SysConfigFields.declared(Knob.CHECK.field(rule)), "1");
        }
    }

    private static void assertRefused(ThrowingCallable write, String message) {
        assertThatThrownBy(write).isInstanceOf(IllegalArgumentException.class).hasMessage(message);
    }

    private static String nextAnnouncement() throws InterruptedException {
        String field = announcements.poll(5, TimeUnit.SECONDS);
        assertThat(field).as("an announcement on " + CHANNEL).isNotNull();
        return field;
    }

    private static long redisMillis() {
        List<String> time = redis.commands().time();
        return Long.parseLong(time.get(0)) * 1000 + Long.parseLong(time.get(1)) / 1000;
    }
}
