package dev.ratelimit.interceptor.identity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class DimensionKeysTest {

    @Test
    void shortPlainPartsStayReadableOthersAreHashed() {
        assertThat(DimensionKeys.keyPart("alice")).isEqualTo("alice");
        assertThat(DimensionKeys.keyPart("  ")).isNull();
        String huge = "x".repeat(100_000);
        assertThat(DimensionKeys.keyPart(huge)).startsWith("~").hasSize(44);
        assertThat(DimensionKeys.keyPart("名字")).startsWith("~").isNotEqualTo(DimensionKeys.keyPart("名前"));
        assertThat(DimensionKeys.keyPart("a b")).startsWith("~");
    }

    @Test
    void ipv6ClientsAreCountedPerPrefix() {
        DimensionKeys keys = new DimensionKeys(request -> null, new TrustedProxyResolver(List.of()), 64);
        assertThat(keys.ipIdentity("2001:db8:1:2:aaaa::1")).isEqualTo(keys.ipIdentity("2001:db8:1:2:bbbb::9"))
                .isEqualTo("2001:db8:1:2:0:0:0:0/64");
        assertThat(keys.ipIdentity("2001:db8:1:3::1")).isNotEqualTo(keys.ipIdentity("2001:db8:1:2::1"));
        assertThat(keys.ipIdentity("192.0.2.1")).isEqualTo("192.0.2.1");
    }

    @Test
    void rejectsAnImpossiblePrefixLength() {
        assertThatThrownBy(() -> new DimensionKeys(request -> null, new TrustedProxyResolver(List.of()), 0))
                .hasMessageContaining("ipv6-prefix-length");
    }
}
