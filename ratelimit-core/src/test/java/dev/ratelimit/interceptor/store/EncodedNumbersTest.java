package dev.ratelimit.interceptor.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class EncodedNumbersTest {

    private final EncodedNumbers encoded = new EncodedNumbers();

    /** Every number reads as its decimal text, whatever was in its slot before: 100,000 numbers share 1,024 slots. */
    @Test
    void everyNumberIsItsDecimalTextWhateverSharedItsSlot() {
        LongStream numbers = LongStream.concat(LongStream.of(0, 1, -1, Long.MIN_VALUE, Long.MAX_VALUE, 60_000),
                ThreadLocalRandom.current().longs(100_000));
        numbers.forEach(number -> assertThat(new String(encoded.of(number), StandardCharsets.US_ASCII))
                .isEqualTo(Long.toString(number)));
    }

    @Test
    void aNumberSentAgainIsNotEncodedAgain() {
        byte[] first = encoded.of(86_400_000);
        assertThat(encoded.of(86_400_000)).isSameAs(first);
    }
}
