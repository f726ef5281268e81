package dev.ratelimit.interceptor.identity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;

class TrustedProxyResolverTest {

    private final TrustedProxyResolver behindProxies = new TrustedProxyResolver(List.of("10.0.0.0/8", "fd00::/8"));

    @Test
    void withoutTrustedProxiesNoHeaderIsRead() {
        TrustedProxyResolver direct = new TrustedProxyResolver(List.of());
        assertThat(direct.clientIp(request("10.1.2.3", "X-Forwarded-For", "1.2.3.4"))).isEqualTo("10.1.2.3");
    }

    @Test
    void anUntrustedPeerIsTheClientWhateverItSends() {
        assertThat(behindProxies.clientIp(request("198.51.100.9", "X-Forwarded-For", "1.2.3.4"))).isEqualTo("198.51.100.9");
    }

    @Test
    void httpsIsBelievedOnlyFromATrustedProxy() {
        assertThat(behindProxies.isSecure(request("10.0.0.1", "X-Forwarded-Proto", "https"))).isTrue();
        assertThat(behindProxies.isSecure(request("10.0.0.1", "Forwarded", "for=203.0.113.5;proto=https"))).isTrue();
        assertThat(behindProxies.isSecure(request("10.0.0.1", "X-Forwarded-Proto", "http"))).isFalse();
        assertThat(behindProxies.isSecure(request("198.51.100.9", "X-Forwarded-Proto", "https"))).isFalse();
        assertThat(new TrustedProxyResolver(List.of()).isSecure(request("10.0.0.1", "X-Forwarded-Proto", "https")))
                .isFalse();
    }

    @Test
    void walksRightToLeftSkippingTrustedProxies() {
        assertThat(behindProxies.clientIp(request("10.0.0.1", "X-Forwarded-For", "6.6.6.6, 203.0.113.5, 10.9.9.9")))
                .isEqualTo("203.0.113.5");
    }

    @Test
    void stopsAtAMalformedHopKeepingTheLastGoodAddress() {
        assertThat(behindProxies.clientIp(request("10.0.0.1", "X-Forwarded-For", "203.0.113.5, evil.example, 10.2.2.2")))
                .isEqualTo("10.2.2.2");
        assertThat(behindProxies.clientIp(request("10.0.0.1", "X-Forwarded-For", ""))).isEqualTo("10.0.0.1");
    }

    @Test
    void prefersForwardedAndStripsPortsAndBrackets() {
        assertThat(behindProxies.clientIp(request("10.0.0.1", "Forwarded", "for=192.0.2.60:4711;proto=https, For=\"[fd00::1]\"",
                "X-Forwarded-For", "1.1.1.1"))).isEqualTo("192.0.2.60");
        assertThat(behindProxies.clientIp(request("10.0.0.1", "Forwarded", "for=\"[2001:db8::7]:80\"")))
                .isEqualTo("2001:db8:0:0:0:0:0:7");
    }

    @Test
    void neverResolvesHostNamesAndCapsTheWalk() {
        String manyProxies = String.join(",", java.util.Collections.nCopies(200, "10.1.1.1"));
        assertThat(behindProxies.clientIp(request("10.0.0.1", "X-Forwarded-For", "localhost, " + manyProxies)))
                .isEqualTo("10.1.1.1");
    }

    @Test
    void rejectsBadCidrsWithTheValueNamed() {
        assertThatThrownBy(() -> new TrustedProxyResolver(List.of("10.0.0.0/33"))).hasMessageContaining("10.0.0.0/33");
        assertThatThrownBy(() -> new TrustedProxyResolver(List.of("proxy.internal"))).hasMessageContaining("proxy.internal");
    }

    private static MockHttpServletRequest request(String peer, String... headers) {
        MockHttpServletRequest request = new MockHttpServletRequest();
        request.setRemoteAddr(peer);
        for (int i = 0; i < headers.length; i += 2) {
            request.addHeader(headers[i], headers[i + 1]);
        }
        return request;
    }
}
