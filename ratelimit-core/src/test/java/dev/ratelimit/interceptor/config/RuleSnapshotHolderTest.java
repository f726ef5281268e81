package dev.ratelimit.interceptor.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratelimit.interceptor.store.RedisKeys;
import dev.ratelimit.interceptor.rule.RuleId;
import dev.ratelimit.interceptor.store.LimiterRedisClient;
import dev.ratelimit.interceptor.store.LimiterRedisConnection;
import dev.ratelimit.interceptor.testsupport.RedisServerProcess;
import dev.ratelimit.interceptor.testsupport.ShippedDefaults;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The snapshot an instance holds, against a real Redis: what it does with a hash that changed, that
 * vanished, that went back to an older version, and with a Redis that does not answer. Several holders on
 * one Redis are several instances.
 */
class RuleSnapshotHolderTest {

    private static final String HASH = "ratelimit:sysconfig";
    private static final RuleId RULE = RuleId.of("m", "C.x");

    private static RedisServerProcess redis;
    private static LimiterRedisConnection connection;
    private static SysConfigRepository repository;
    private static SysConfigEditor editor;
    private final List<RuleSnapshotHolder> holders = new ArrayList<>();

    /** As the limiter's own connection: commands refused at once while Redis is away, not queued. */
    @BeforeAll
    static void start() {
        redis = RedisServerProcess.start();
        RedisURI server = RedisURI.create("127.0.0.1", redis.port());
        RedisClient client = RedisClient.create(server);
        client.setOptions(ClientOptions.builder().disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .build());
        connection = new LimiterRedisConnection(() -> LimiterRedisClient.of(client, server),
                ShippedDefaults.SILENCE, ShippedDefaults.MAX_WAIT, client::shutdown);
        repository = new SysConfigRepository(connection.backgroundWork(), new RedisKeys("ratelimit"));
        editor = new SysConfigEditor(repository, Clock.systemUTC());
    }

    @AfterAll
    static void stop() {
        connection.destroy();
        redis.close();
    }

    @BeforeEach
    void emptyRedis() {
        redis.commands().flushall();
        // after the test that stops Redis, the connection comes back by its reconnect schedule
        Awaitility.await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> repository.readAll().isEmpty());
    }

    @AfterEach
    void stopHolders() {
        holders.forEach(RuleSnapshotHolder::destroy);
    }

    @Test
    void aNewSnapshotOnlyWhenTheContentChangesWithTheHashsVersion() {
        RuleSnapshotHolder holder = holder();
        declareRule();
        editor.setRuleCount(RULE, "5");
        assertThat(holder.refresh()).isTrue();
        RuleSnapshot first = holder.current();
        assertThat(holder.refresh()).isTrue();
        assertThat(holder.current()).isSameAs(first);

        editor.setDynamicRule(RuleId.of("m", "C.open"), "5/60");
        holder.refresh();

        assertThat(holder.current()).isNotSameAs(first);
        assertThat(holder.current().version()).isGreaterThan(first.version())
                .isEqualTo(Long.parseLong(redis.commands().hget(HASH, "config.version")));
    }

    @Test
    void aFreshRedisWithoutAHashIsNoLossTheDefaultsApply() {
        RuleSnapshotHolder holder = holder();

        assertThat(holder.refresh()).isTrue();

        assertThat(holder.current().holdsConfig()).isFalse();
        assertThat(holder.lastRestore()).isNull();
        assertThat(redis.commands().exists(HASH)).isZero();
    }

    /** A restart without persistence, a flush or an eviction: the instance keeps its rules and puts them back. */
    @Test
    void aVanishedHashIsPutBackFromTheSnapshotWhichStaysInForce() {
        RuleSnapshotHolder holder = holder();
        declareRule();
        editor.setRuleCount(RULE, "2");
        editor.setDynamicRule(RuleId.of("m", "C.open"), "1/60");
        holder.refresh();
        Map<String, String> before = redis.commands().hgetall(HASH);

        redis.commands().del(HASH);
        assertThat(holder.refresh()).isTrue();

        assertThat(holder.current().fields()).isEqualTo(before);
        assertThat(redis.commands().hgetall(HASH)).isEqualTo(before);
        assertThat(holder.lastRestore().found()).as("the hash was gone").isNull();
        assertThat(holder.lastRestore().version()).isEqualTo(SysConfigParser.version(before));
    }

    /**
     * A write while Redis has lost the hash would be a hash of its own field alone, newer than every copy: an
     * app's editor first has its instance put its snapshot back, then writes; the operators' other values stay.
     */
    @Test
    void aWriteWhileTheHashIsGoneIsMadeOnceTheInstancePutItsSnapshotBack() {
        declareRule();
        RuleSnapshotHolder holder = holder();
        editor.setRuleCount(RULE, "2");
        editor.setDynamicRule(RuleId.of("m", "C.open"), "1/60");
        holder.refresh();
        redis.commands().del(HASH);
        SysConfigEditor ofTheApp = new SysConfigEditor(repository, Clock.systemUTC(), rule -> false, holder::refresh);

        assertThatThrownBy(() -> editor.setLogSwitch(false)).as("an editor that cannot put it back")
                .hasMessageStartingWith("the config is not in Redis");
        ofTheApp.setRuleSwitch(RULE, false);

        assertThat(redis.commands().hgetall(HASH)).containsEntry(Knob.COUNT.field(RULE), "2")
                .containsEntry("dyn.m.C.open", "1/60").containsEntry(Knob.CHECK.field(RULE), "0");
    }

    /** A failover to a replica that had not yet received the last writes. */
    @Test
    void anOlderHashIsReplacedByTheNewerSnapshot() {
        RuleSnapshotHolder holder = holder();
        declareRule();
        editor.setRuleCount(RULE, "2");
        Map<String, String> older = redis.commands().hgetall(HASH);
        editor.setRuleSwitch(RULE, false);
        holder.refresh();
        Map<String, String> newer = redis.commands().hgetall(HASH);

        redis.commands().del(HASH);
        redis.commands().hset(HASH, older);
        holder.refresh();

        assertThat(redis.commands().hgetall(HASH)).isEqualTo(newer);
        assertThat(holder.current().fields()).isEqualTo(newer);
        assertThat(holder.lastRestore().found()).isEqualTo(SysConfigParser.version(older));
    }

    /**
     * Two instances, one of which missed the newest write, both find the hash gone: whichever puts its copy
     * back first, the newest ends in Redis and in both snapshots, and an operator's removal stays removed.
     */
    @Test
    void twoInstancesWithDifferentSnapshotsEndWithTheNewer() {
        declareRule();
        RuleSnapshotHolder behind = holder();
        RuleSnapshotHolder current = holder();
        editor.setDynamicRule(RuleId.of("m", "C.open"), "1/60");
        behind.refresh();
        editor.removeDynamicRule("m.C.open");
        current.refresh();
        Map<String, String> newest = redis.commands().hgetall(HASH);
        assertThat(behind.current().dynamicRules()).as("missed the removal").containsKey("m.C.open");

        redis.commands().del(HASH);
        behind.refresh();
        current.refresh();
        behind.refresh();

        assertThat(redis.commands().hgetall(HASH)).isEqualTo(newest).doesNotContainKey("dyn.m.C.open");
        assertThat(behind.current().dynamicRules()).isEmpty();
        assertThat(current.current().fields()).isEqualTo(newest);
    }

    /** No announcement comes with a flush: the version check, every second by default, finds it. */
    @Test
    void theVersionCheckFindsALostHashWithoutAnAnnouncement() throws Exception {
        declareRule();
        editor.setRuleCount(RULE, "2");
        Map<String, String> before = redis.commands().hgetall(HASH);
        RuleSnapshotHolder holder = holder();
        holder.afterPropertiesSet();
        holder.afterSingletonsInstantiated();

        redis.commands().flushall();

        Awaitility.await("put back by the version check").atMost(Duration.ofSeconds(5))
                .until(() -> before.equals(redis.commands().hgetall(HASH)));
        assertThat(holder.current().fields()).isEqualTo(before);
    }

    /**
     * A change reported while Redis could not be read (a hand edit during a failover) advances no version: the
     * check that follows a failed read reads the whole hash again, rather than wait for the periodic refresh.
     */
    @Test
    void aReadThatFailedIsMadeAgainAtTheNextCheck() throws Exception {
        declareRule();
        editor.setRuleCount(RULE, "2");
        // Redis answers the version but not the whole hash, for a while: as in a cluster's failover, where the
        // report of a change arrives before the hash can be read.
        AtomicBoolean reads = new AtomicBoolean(true);
        ConfigHash failing = new ConfigHash() {
            @Override
            public Map<String, String> readAll() {
                if (!reads.get()) {
                    throw new IllegalStateException("the hash's node is failing over");
                }
                return repository.readAll();
            }

            @Override
            public Long version() {
                return repository.version();
            }

            @Override
            public boolean restore(long version, Map<String, String> copy) {
                return repository.restore(version, copy);
            }
        };
        RuleSnapshotHolder holder = new RuleSnapshotHolder(failing, null, List::of, Duration.ofSeconds(30),
                Duration.ofSeconds(1), Duration.ofSeconds(3), Clock.systemUTC());
        holders.add(holder);
        holder.afterPropertiesSet();
        holder.afterSingletonsInstantiated();
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> holder.current().holdsConfig());
        reads.set(false);
        redis.commands().hset(HASH, Knob.COUNT.field(RULE), "3"); // by hand: no version, no announcement
        assertThat(holder.refresh()).as("the read the report of the change asked for").isFalse();

        reads.set(true);

        Awaitility.await("read again within a few checks, not the 30 s refresh").atMost(Duration.ofSeconds(10))
                .until(() -> "3".equals(holder.current().fields().get(Knob.COUNT.field(RULE))));
    }

    @Test
    void aFailedRefreshKeepsTheLastGoodSnapshotAndAFirstLoadThatFailsTheDefaults() {
        declareRule();
        editor.setGlobalSwitch(false);
        RuleSnapshotHolder holder = holder();
        RuleSnapshotHolder fresh = holder();
        assertThat(holder.refresh()).isTrue();
        RuleSnapshot good = holder.current();

        redis.stop();
        try {
            Awaitility.await("Redis judged away").atMost(Duration.ofSeconds(10)).until(() -> !holder.refresh());
            assertThat(fresh.refresh()).isFalse();
        } finally {
            redis.restart();
        }

        assertThat(holder.current()).isSameAs(good);
        assertThat(holder.current().globalCheck()).isFalse();
        assertThat(fresh.current()).isEqualTo(RuleSnapshot.defaults());
    }

    /**
     * What the app that declares the rule merges into the hash at start-up, in part: an editor writes to no hash
     * that Redis does not hold.
     */
    private static void declareRule() {
        redis.commands().hset(HASH, SysConfigFields.declared(Knob.CHECK.field(RULE)), "1");
    }

    /** One instance, as the app builds it: the shipped intervals, no durable copy. */
    private RuleSnapshotHolder holder() {
        RuleSnapshotHolder holder = new RuleSnapshotHolder(repository, null, List::of, Duration.ofSeconds(30),
                Duration.ofSeconds(1), Duration.ofSeconds(3), Clock.systemUTC());
        holders.add(holder);
        return holder;
    }
}
