package dev.ratelimit.interceptor.identity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratelimit.interceptor.internal.expression.ParsedExpressions;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Key parts that come from requests: IPv6 aggregation. */
class DimensionKeysTest {

    private static DimensionKeys withIpv6Prefix(int length) {
        return new DimensionKeys(request -> null, new TrustedProxyResolver(List.of()), length, new CustomKeyExpressions(null, new ParsedExpressions("key expression")));
    }

    @Test
    void ipv4AddressesAreCountedOneByOne() {
        assertThat(withIpv6Prefix(64).ipIdentity("203.0.113.7")).isEqualTo("203.0.113.7");
    }

    @Test
    void ipv6AddressesAreCountedPerConfiguredPrefix() {
        assertThat(withIpv6Prefix(64).ipIdentity("2001:db8:1:2:3:4:5:6")).isEqualTo("2001:db8:1:2:0:0:0:0/64");
        assertThat(withIpv6Prefix(64).ipIdentity("2001:db8:1:2::ffff")).isEqualTo("2001:db8:1:2:0:0:0:0/64");
        assertThat(withIpv6Prefix(48).ipIdentity("2001:db8:1:2:3:4:5:6")).isEqualTo("2001:db8:1:0:0:0:0:0/48");
        assertThat(withIpv6Prefix(56).ipIdentity("2001:db8:1:2ff::1")).isEqualTo("2001:db8:1:200:0:0:0:0/56");
        assertThat(withIpv6Prefix(128).ipIdentity("2001:db8::1")).isEqualTo("2001:db8::1");
    }

    @Test
    void anIpv6PrefixLengthOutsideOneTo128FailsTheStart() {
        assertThatThrownBy(() -> withIpv6Prefix(0)).hasMessageContaining("ipv6-prefix-length");
        assertThatThrownBy(() -> withIpv6Prefix(129)).hasMessageContaining("ipv6-prefix-length");
    }
}
