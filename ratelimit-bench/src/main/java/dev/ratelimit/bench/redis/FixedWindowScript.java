package dev.ratelimit.bench.redis;

import dev.ratelimit.bench.BenchLimit;
import dev.ratelimit.bench.KeySpread;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * Our fixed-window script exactly as the store sends it for the benchmark's requests (one unit on Redis' clock,
 * no other option: {@code fixed_window_plain.lua}), with the arguments of each counter prepared once, for sending
 * it through other clients than the store's.
 */
public final class FixedWindowScript {

    private static final String FOLDER = "/dev/ratelimit/interceptor/store/";

    final byte[] body;
    final byte[][] keys;
    final byte[] limit;
    final byte[] window;

    public FixedWindowScript(BenchLimit limit, int keys) {
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        for (String part : new String[] {"fixed_window_plain.lua"}) {
            try (InputStream in = FixedWindowScript.class.getResourceAsStream(FOLDER + part)) {
                in.transferTo(text);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        this.body = text.toByteArray();
        this.keys = new byte[keys][];
        for (int i = 0; i < keys; i++) {
            this.keys[i] = bytes(KeySpread.key(i));
        }
        this.limit = bytes(Long.toString(limit.count()));
        this.window = bytes(Long.toString(limit.window().toMillis()));
    }

    /** The script's text, as {@code SCRIPT LOAD} takes it. */
    public String text() {
        return new String(body, StandardCharsets.UTF_8);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
