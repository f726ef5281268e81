package dev.ratelimit.interceptor.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.config.RuleSnapshotHolder;
import dev.ratelimit.interceptor.config.SysConfigEditor;
import dev.ratelimit.interceptor.fixture.FixtureApplication;
import dev.ratelimit.interceptor.fixture.HeaderLogin;
import dev.ratelimit.interceptor.testsupport.HttpProbe;
import dev.ratelimit.interceptor.testsupport.RedisWithApps;
import java.time.Duration;
import java.util.Arrays;
import java.util.stream.IntStream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Whitelisted clients pass every rule: addresses as the trusted-proxy rules resolve them, and users the
 * server established; from the properties and from the config hash. An address or user code a client
 * merely sends never whitelists it.
 */
@ExtendWith(OutputCaptureExtension.class)
class WhitelistTest {

    private static final String[] WHITELIST = {"fixture.header-login=true",
            "ratelimit.whitelist.ips=192.0.2.0/24, 2001:db8::/32", "ratelimit.whitelist.users=ops"};

    @RegisterExtension
    static final RedisWithApps env = new RedisWithApps();

    /** Behind a proxy this test plays (127.0.0.1 is trusted). */
    private static HttpProbe proxied;
    /** Reached directly: the same forwarding headers come from an untrusted peer. */
    private static HttpProbe direct;
    private static ConfigurableApplicationContext proxiedApp;
    private static ConfigurableApplicationContext directApp;

    @BeforeAll
    static void start() {
        String[] behindProxy = Arrays.copyOf(WHITELIST, WHITELIST.length + 1);
        behindProxy[WHITELIST.length] = "ratelimit.trusted-proxies=127.0.0.1";
        proxiedApp = env.start(behindProxy);
        proxied = new HttpProbe(FixtureApplication.port(proxiedApp));
        directApp = env.start(WHITELIST);
        direct = new HttpProbe(FixtureApplication.port(directApp));
    }

    @BeforeEach
    void emptyRedis() {
        env.redis().emptyAll();
        proxiedApp.getBean(RuleSnapshotHolder.class).refresh();
        directApp.getBean(RuleSnapshotHolder.class).refresh();
    }

    @Test
    void aWhitelistedAddressPassesEveryRuleAndIsNotCounted() {
        IntStream.range(0, 6).forEach(i -> {
            assertThat(proxied.status("/ip", "X-Forwarded-For", "192.0.2.7")).isEqualTo(200);
            assertThat(proxied.status("/stacked?usercode=u" + i, "X-Forwarded-For", "2001:db8:5::1")).isEqualTo(200);
        });
        assertThat(env.redis().commands().keys("ratelimit:counter:*")).isEmpty();
    }

    @Test
    void aForwardedAddressFromAnUntrustedPeerWhitelistsNothing() {
        assertThat(IntStream.range(0, 6).map(i -> direct.status("/ip", "X-Forwarded-For", "192.0.2.7",
                "Forwarded", "for=192.0.2.7"))).containsExactly(200, 200, 200, 429, 429, 429);
    }

    @Test
    void aWhitelistedUserMustBeLoggedInNotJustNamed() {
        assertThat(IntStream.range(0, 4).map(i -> direct.status("/stacked", HeaderLogin.HEADER, "ops")))
                .containsOnly(200);
        assertThat(IntStream.range(0, 4).map(i -> direct.status("/stacked?usercode=ops")))
                .containsExactly(200, 200, 429, 429);
        assertThat(IntStream.range(0, 4).map(i -> direct.status("/stacked", HeaderLogin.HEADER, "mallory")))
                .containsExactly(200, 200, 429, 429);
    }

    @Test
    void theConfigHashAddsEntriesAtRunTime() {
        SysConfigEditor editor = proxiedApp.getBean(SysConfigEditor.class);
        RuleSnapshotHolder snapshots = proxiedApp.getBean(RuleSnapshotHolder.class);
        editor.setWhitelistIps("198.51.100.0/24");
        editor.setWhitelistUsers("auditor, ops2");
        Awaitility.await().atMost(Duration.ofSeconds(5))
                .until(() -> snapshots.current().whitelist().users().contains("ops2"));

        IntStream.range(0, 5).forEach(i -> {
            assertThat(proxied.status("/ip", "X-Forwarded-For", "198.51.100.20")).isEqualTo(200);
            assertThat(proxied.status("/stacked", HeaderLogin.HEADER, "auditor")).isEqualTo(200);
        });

        editor.setWhitelistIps("");
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> snapshots.current().whitelist().ips().isEmpty());
        assertThat(IntStream.range(0, 4).map(i -> proxied.status("/ip", "X-Forwarded-For", "198.51.100.20")))
                .containsExactly(200, 200, 200, 429);
    }

    @Test
    void aBadEntryInTheConfigHashIsIgnoredWithAWarningAndTheRestApplies(CapturedOutput output) {
        env.redis().commands().hset("ratelimit:sysconfig", "whitelist.ips", "not-an-ip, 203.0.113.0/24,10.0.0.0/99");
        proxiedApp.getBean(RuleSnapshotHolder.class).refresh();

        IntStream.range(0, 5)
                .forEach(i -> assertThat(proxied.status("/ip", "X-Forwarded-For", "203.0.113.9")).isEqualTo(200));
        assertThat(output).contains("Rate limit config: ignoring 'not-an-ip' in config field 'whitelist.ips': "
                + "not an IP address or CIDR block");
        assertThat(output).contains("ignoring '10.0.0.0/99' in config field 'whitelist.ips'");
    }
}
