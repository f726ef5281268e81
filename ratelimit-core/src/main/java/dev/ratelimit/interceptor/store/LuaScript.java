package dev.ratelimit.interceptor.store;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * A Lua script read once from {@code .lua} resources (joined in order, so scripts can share a head and a
 * tail), with the SHA-1 that {@code EVALSHA} names it by.
 */
public record LuaScript(byte[] body, String sha1) {

    /** The store's scripts: resources next to this class. */
    static LuaScript load(String... resourceNames) {
        return load(LuaScript.class, resourceNames);
    }

    /** A script of resources next to {@code owner}, the class that runs it. */
    public static LuaScript load(Class<?> owner, String... resourceNames) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        for (String resourceName : resourceNames) {
            try (InputStream in = owner.getResourceAsStream(resourceName)) {
                if (in == null) {
                    throw new IllegalStateException("Missing Lua script resource " + resourceName + " of " + owner.getName());
                }
                in.transferTo(body);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        byte[] bytes = body.toByteArray();
        try {
            return new LuaScript(bytes, HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(bytes)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is required by every Java runtime", e);
        }
    }
}
