package dev.ratelimit.console.access;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** Signs and checks short texts with HMAC-SHA256: login cookies and CSRF tokens carry no server state. */
public final class HmacSigner {

    private static final String ALGORITHM = "HmacSHA256";

    private final SecretKeySpec key;

    private HmacSigner(byte[] key) {
        this.key = new SecretKeySpec(key, ALGORITHM);
    }

    /** A signer keyed by {@code secret}, or by 32 random bytes when it is blank. */
    public static HmacSigner of(String secret) {
        if (secret != null && !secret.isBlank()) {
            return new HmacSigner(secret.getBytes(StandardCharsets.UTF_8));
        }
        byte[] random = new byte[32];
        new SecureRandom().nextBytes(random);
        return new HmacSigner(random);
    }

    public String sign(String text) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(key);
            return Base64.getUrlEncoder().withoutPadding().encodeToString(mac.doFinal(text.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is required by every Java runtime", e);
        }
    }

    /** Constant-time comparison of {@code signature} with the signature of {@code text}. */
    public boolean verify(String text, String signature) {
        return signature != null && MessageDigest.isEqual(sign(text).getBytes(StandardCharsets.US_ASCII),
                signature.getBytes(StandardCharsets.US_ASCII));
    }
}
