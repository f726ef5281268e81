package dev.ratelimit.interceptor.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratelimit.interceptor.badkey.BadKeyApplication;
import dev.ratelimit.interceptor.fixture.FixtureApplication;
import dev.ratelimit.interceptor.fixture.FixtureWithRedis;
import dev.ratelimit.interceptor.testsupport.HttpProbe;
import dev.ratelimit.interceptor.testsupport.RedisServerProcess;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Who is counted together: each dimension through real HTTP, behind a trusted proxy so client addresses can vary. */
class DimensionTest {

    private static final String COUNTERS = "ratelimit:counter:*";

    @RegisterExtension
    static final FixtureWithRedis fixture = FixtureWithRedis.with("ratelimit.trusted-proxies=127.0.0.1/32");

    private final RedisServerProcess redis = fixture.redis();
    private final HttpProbe http = fixture.http();

    @BeforeEach
    void emptyRedis() {
        redis.emptyAll();
    }

    @Test
    void userLimitsCountEachUserApart() {
        assertThat(http.status("/short?usercode=alice")).isEqualTo(200);
        assertThat(http.status("/short?usercode=alice")).isEqualTo(200);
        assertThat(http.status("/short?usercode=alice")).isEqualTo(429);
        assertThat(http.status("/short?usercode=bob")).isEqualTo(200);
    }

    @Test
    void ipv4ClientsAreCountedPerAddress() {
        IntStream.range(0, 3).forEach(i -> assertThat(fromIp("203.0.113.7")).isEqualTo(200));
        assertThat(fromIp("203.0.113.7")).isEqualTo(429);
        assertThat(fromIp("203.0.113.8")).isEqualTo(200);
    }

    @Test
    void ipv6ClientsOfOneSlash64ShareACounter() {
        assertThat(fromIp("2001:db8:1:2::1")).isEqualTo(200);
        assertThat(fromIp("2001:db8:1:2::2")).isEqualTo(200);
        assertThat(fromIp("2001:db8:1:2:aaaa:bbbb:cccc:dddd")).isEqualTo(200);
        assertThat(fromIp("2001:db8:1:2:ffff:ffff:ffff:ffff")).isEqualTo(429);
        assertThat(fromIp("2001:db8:1:3::1")).isEqualTo(200);

        assertThat(redis.commands().keys(COUNTERS)).containsExactlyInAnyOrder(
                "ratelimit:counter:fixture:LimitedController.ip:IP:2001:db8:1:2:0:0:0:0/64",
                "ratelimit:counter:fixture:LimitedController.ip:IP:2001:db8:1:3:0:0:0:0/64");
    }

    @Test
    void customKeyFromAPathVariable() {
        assertThat(http.status("/tenant/acme/report")).isEqualTo(200);
        assertThat(http.status("/tenant/acme/report")).isEqualTo(200);
        assertThat(http.status("/tenant/acme/report")).isEqualTo(429);
        assertThat(http.status("/tenant/globex/report")).isEqualTo(200);
        assertThat(redis.commands().keys(COUNTERS)).contains(
                "ratelimit:counter:fixture:CustomKeyController.tenantReport:CUSTOM:acme");
    }

    @Test
    void customKeyFromAHeaderWhateverTheCaseOfItsName() {
        assertThat(http.status("/api-key", "X-Api-Key", "k1")).isEqualTo(200);
        assertThat(http.status("/api-key", "x-api-key", "k1")).isEqualTo(200);
        assertThat(http.status("/api-key", "X-API-KEY", "k1")).isEqualTo(429);
        assertThat(http.status("/api-key", "X-Api-Key", "k2")).isEqualTo(200);
        IntStream.range(0, 3).forEach(i -> assertThat(http.status("/api-key")).as("no key, no limit").isEqualTo(200));
    }

    @Test
    void customKeyFromAResolverBean() {
        assertThat(http.status("/organisation?org=ACME")).isEqualTo(200);
        assertThat(http.status("/organisation?org=acme")).isEqualTo(200);
        assertThat(http.status("/organisation?org=Acme")).isEqualTo(429);
        IntStream.range(0, 3).forEach(i -> assertThat(http.status("/organisation")).isEqualTo(200));
    }

    @Test
    void aKeyExpressionThatFailsOnARequestLeavesThatRequestUnlimited() {
        IntStream.range(0, 3).forEach(i -> assertThat(http.status("/query")).isEqualTo(200));
        assertThat(http.status("/query?q=x")).isEqualTo(200);
        assertThat(http.status("/query?q=X")).isEqualTo(200);
        assertThat(http.status("/query?q=x")).isEqualTo(429);
    }

    @Test
    void longCustomKeysAreHashed() {
        String tenant = "t".repeat(500);
        assertThat(http.status("/tenant/" + tenant + "/report")).isEqualTo(200);
        assertThat(http.status("/tenant/" + tenant + "/report")).isEqualTo(200);
        assertThat(http.status("/tenant/" + tenant + "/report")).isEqualTo(429);

        assertThat(redis.commands().keys(COUNTERS)).singleElement().asString()
                .matches("ratelimit:counter:fixture:CustomKeyController.tenantReport:CUSTOM:~[A-Za-z0-9_-]{43}");
    }

    @Test
    void aKeyExpressionThatDoesNotParseFailsTheStartNamingTheMethod() {
        assertThatThrownBy(() -> FixtureApplication.start(BadKeyApplication.class, fixture.redis().port()).close())
                .hasStackTraceContaining("Invalid @RateLimit on "
                        + "dev.ratelimit.interceptor.badkey.BadKeyApplication$BadKeyController.bad")
                .hasStackTraceContaining("key expression '#headers['X-Tenant'' does not parse");
    }

    private int fromIp(String ip) {
        return http.status("/ip", "X-Forwarded-For", ip);
    }
}
