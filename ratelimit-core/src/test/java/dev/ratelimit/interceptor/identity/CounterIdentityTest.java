package dev.ratelimit.interceptor.identity;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The cap on the length and characters of a counter key's identity part. */
class CounterIdentityTest {

    @Test
    void shortPlainPartsAreKeptAndOthersHashed() {
        assertThat(CounterIdentity.keyPart("alice")).isEqualTo("alice");
        assertThat(CounterIdentity.keyPart("a".repeat(64))).isEqualTo("a".repeat(64));
        assertThat(CounterIdentity.keyPart("a".repeat(65))).matches("~[A-Za-z0-9_-]{43}");
        assertThat(CounterIdentity.keyPart("with space")).matches("~[A-Za-z0-9_-]{43}");
        assertThat(CounterIdentity.keyPart("用户")).matches("~[A-Za-z0-9_-]{43}");
        assertThat(CounterIdentity.keyPart("a".repeat(65))).isNotEqualTo(CounterIdentity.keyPart("a".repeat(66)));
    }

    @Test
    void blankIsNoIdentity() {
        assertThat(CounterIdentity.keyPart(null)).isNull();
        assertThat(CounterIdentity.keyPart(" ")).isNull();
    }
}
