package dev.ratelimit.interceptor.store;

import java.nio.charset.StandardCharsets;

/**
 * The decimal bytes of numbers, as a script reads its arguments: the numbers a limit sends with each of its requests
 * (its count, its window, its cost, its penalty) are encoded once and found again without allocating, where encoding
 * each anew made a string and an array per number and per decision. A slot per hash of the number, overwritten by
 * the next number that hashes there; entries are immutable, so a thread that sees one sees it whole.
 */
final class EncodedNumbers {

    private static final int SLOT_BITS = 10;

    private final Entry[] slots = new Entry[1 << SLOT_BITS];

    byte[] of(long value) {
        int slot = (int) ((value * 0x9E3779B97F4A7C15L) >>> (Long.SIZE - SLOT_BITS));
        Entry entry = slots[slot];
        if (entry != null && entry.value == value) {
            return entry.bytes;
        }
        byte[] bytes = Long.toString(value).getBytes(StandardCharsets.US_ASCII);
        slots[slot] = new Entry(value, bytes);
        return bytes;
    }

    private record Entry(long value, byte[] bytes) {
    }
}
