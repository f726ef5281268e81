package dev.ratelimit.interceptor.identity;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CidrBlockTest {

    @Test
    void matchesByPrefix() {
        CidrBlock block = CidrBlock.parse("192.168.16.0/20");
        assertThat(block.contains(IpLiteral.parse("192.168.31.255"))).isTrue();
        assertThat(block.contains(IpLiteral.parse("192.168.32.0"))).isFalse();
        assertThat(block.contains(IpLiteral.parse("::1"))).isFalse();
    }

    @Test
    void bareAddressesAndIpv6() {
        assertThat(CidrBlock.parse("::1").contains(IpLiteral.parse("0:0:0:0:0:0:0:1"))).isTrue();
        assertThat(CidrBlock.parse("2001:db8::/32").contains(IpLiteral.parse("2001:db8:ffff::1"))).isTrue();
        assertThat(CidrBlock.parse("0.0.0.0/0").contains(IpLiteral.parse("8.8.8.8"))).isTrue();
    }

    @Test
    void literalsOnly() {
        assertThat(IpLiteral.parse("256.1.1.1")).isNull();
        assertThat(IpLiteral.parse("example.com")).isNull();
        assertThat(IpLiteral.parse("1.2.3")).isNull();
        assertThat(IpLiteral.parse("[::1]")).isNotNull();
    }
}
