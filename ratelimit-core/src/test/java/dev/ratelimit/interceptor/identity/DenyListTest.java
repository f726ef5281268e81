package dev.ratelimit.interceptor.identity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratelimit.interceptor.InvalidValueException;
import dev.ratelimit.interceptor.identity.DenyList.Entry;
import dev.ratelimit.interceptor.identity.DenyList.Kind;
import dev.ratelimit.interceptor.testsupport.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The deny list's matcher: addresses and blocks of both families by prefix, users, keys, and ends. */
class DenyListTest {

    private static final Instant NOW = Instant.parse("2026-12-01T10:00:00Z");
    private final ManualClock clock = new ManualClock(NOW.toEpochMilli());

    @Test
    void addressesMatchTheirBlocksOfEveryPrefixLengthAndNothingElse() {
        DenyList list = DenyList.of(List.of(
                forever(Kind.IP, "203.0.113.7"), forever(Kind.IP, "198.51.100.0/24"), forever(Kind.IP, "10.0.0.0/8"),
                forever(Kind.IP, "2001:db8::/32"), forever(Kind.IP, "fd00::1"), forever(Kind.IP, "0.0.0.0/1")));

        assertThat(List.of("203.0.113.7", "198.51.100.255", "10.200.3.4", "2001:db8:ffff::1", "FD00:0:0:0:0:0:0:1",
                "[fd00::1]", "127.0.0.1"))
                .allSatisfy(ip -> assertThat(list.address(ip, clock)).as(ip).isNotNull());
        assertThat(List.of("203.0.113.8", "198.51.101.0", "2001:db9::1", "fd00::2", "128.0.0.1", "not an ip"))
                .allSatisfy(ip -> assertThat(list.address(ip, clock)).as(ip).isNull());
        assertThat(list.address(null, clock)).isNull();
        assertThat(list.address("10.1.1.1", clock).target()).isEqualTo("10.0.0.0/8");
    }

    @Test
    void anEntryStopsAtItsEndAndOfSeveralBlocksTheOneThatLastsLongestIsReported() {
        Instant end = NOW.plusSeconds(60);
        DenyList list = DenyList.of(List.of(new Entry(Kind.IP, "192.0.2.0/24", end, "scraping"),
                new Entry(Kind.IP, "192.0.2.9", NOW.plusSeconds(3600), ""), new Entry(Kind.USER, "eve", end, ""),
                new Entry(Kind.KEY, "tenant-7", end, "")));

        assertThat(list.address("192.0.2.9", clock).until()).isEqualTo(NOW.plusSeconds(3600));
        assertThat(list.address("192.0.2.10", clock).note()).isEqualTo("scraping");
        assertThat(list.user("eve", clock)).isNotNull();
        assertThat(list.key("tenant-7", clock)).isNotNull();

        clock.advance(60_000);

        assertThat(list.address("192.0.2.10", clock)).isNull();
        assertThat(list.address("192.0.2.9", clock)).isNotNull();
        assertThat(list.user("eve", clock)).isNull();
        assertThat(list.key("tenant-7", clock)).isNull();
    }

    @Test
    void aUserMatchesByItsCodeOrByTheHashedIdentityItsCountersHave() {
        String longCode = "x".repeat(100);
        DenyList list = DenyList.of(List.of(forever(Kind.USER, "mallory"),
                forever(Kind.USER, CounterIdentity.keyPart(longCode))));

        assertThat(list.user("mallory", clock)).isNotNull();
        assertThat(list.user(longCode, clock)).isNotNull();
        assertThat(list.user("x".repeat(99), clock)).isNull();
        assertThat(list.key("mallory", clock)).as("a user entry is not a key").isNull();
        assertThat(list.hasAddresses()).isFalse();
        assertThat(list.hasKeys()).isFalse();
    }

    @Test
    void valuesAreForeverOrAnEndWithAnOptionalNoteAndBlocksAreWrittenCanonically() {
        assertThat(Entry.parse(Kind.IP, "10.0.0.0/8", "forever")).isEqualTo(new Entry(Kind.IP, "10.0.0.0/8", null, ""));
        Entry noted = Entry.parse(Kind.USER, "eve", " 2026-12-03T10:00:00Z  scraping /api/search ");
        assertThat(noted).isEqualTo(new Entry(Kind.USER, "eve", Instant.parse("2026-12-03T10:00:00Z"),
                "scraping /api/search"));
        assertThat(noted.value()).isEqualTo("2026-12-03T10:00:00Z scraping /api/search");
        assertThat(noted.millisLeft(NOW)).isEqualTo(Duration.ofDays(2).toMillis());
        assertThatThrownBy(() -> Entry.parse(Kind.USER, "eve", "tomorrow")).isInstanceOf(InvalidValueException.class);
        assertThatThrownBy(() -> Entry.parse(Kind.USER, "eve", "")).isInstanceOf(InvalidValueException.class);

        assertThat(CidrBlock.parse("10.1.2.3/8").canonical()).isEqualTo("10.0.0.0/8");
        assertThat(CidrBlock.parse("203.0.113.7/32").canonical()).isEqualTo("203.0.113.7");
        assertThat(CidrBlock.parse("2001:0DB8:0000:0000:0000:0000:0000:0001").canonical()).isEqualTo("2001:db8::1");
        assertThat(CidrBlock.parse("2001:db8:1:2:3:4:5:6/64").canonical()).isEqualTo("2001:db8:1:2::/64");
        assertThat(CidrBlock.parse("1:0:0:1:0:0:0:1").canonical()).isEqualTo("1:0:0:1::1");
        assertThat(CidrBlock.parse("1:0:1:1:1:1:1:1").canonical()).isEqualTo("1:0:1:1:1:1:1:1");
        assertThat(CidrBlock.parse("::/0").canonical()).isEqualTo("::/0");
    }

    private static Entry forever(Kind kind, String target) {
        return new Entry(kind, target, null, "");
    }
}
