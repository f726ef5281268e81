package dev.ratelimit.interceptor.store;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** A Lua script read once from a {@code .lua} resource next to this class, with the SHA-1 that {@code EVALSHA} names it by. */
record LuaScript(String name, byte[] body, String sha1) {

    static LuaScript load(String resourceName) {
        try (InputStream in = LuaScript.class.getResourceAsStream(resourceName)) {
            if (in == null) {
                throw new IllegalStateException("Missing Lua script resource " + resourceName);
            }
            byte[] body = in.readAllBytes();
            return new LuaScript(resourceName, body, HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(body)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is required by every Java runtime", e);
        }
    }
}
