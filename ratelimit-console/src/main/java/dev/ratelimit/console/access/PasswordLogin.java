package dev.ratelimit.console.access;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;

/**
 * The console's own login: one operator name and password from properties. A successful login sets a
 * signed cookie ({@code name.expiry.signature}; HttpOnly, SameSite=Strict, scoped to the console path),
 * so it works on every instance that shares {@code ratelimit.console.secret} and leaves the app's own
 * session alone.
 */
public class PasswordLogin implements ConsoleAccessPolicy {

    static final String COOKIE = "rlc_session";

    private final String username;
    private final byte[] password;
    private final HmacSigner signer;
    private final Duration timeout;
    private final String cookiePath;
    private final Clock clock;

    public PasswordLogin(String username, String password, HmacSigner signer, Duration timeout, String cookiePath,
                         Clock clock) {
        this.username = username;
        this.password = password.getBytes(StandardCharsets.UTF_8);
        this.signer = signer;
        this.timeout = timeout;
        this.cookiePath = cookiePath;
        this.clock = clock;
    }

    @Override
    public String operator(HttpServletRequest request) {
        String token = ConsoleCookies.value(request, COOKIE);
        if (token == null) {
            return null;
        }
        String[] parts = token.split("\\.");
        if (parts.length != 3) {
            return null;
        }
        long expiry;
        try {
            expiry = Long.parseLong(parts[1]);
        } catch (NumberFormatException e) {
            return null;
        }
        if (expiry < clock.instant().getEpochSecond() || !signer.verify(parts[0] + "." + parts[1], parts[2])) {
            return null;
        }
        return new String(Base64.getUrlDecoder().decode(parts[0]), StandardCharsets.UTF_8);
    }

    /** Checks the credentials (in constant time) and sets the login cookie when they match. */
    public boolean login(String name, String secret, HttpServletRequest request, HttpServletResponse response) {
        boolean nameMatches = MessageDigest.isEqual(username.getBytes(StandardCharsets.UTF_8),
                String.valueOf(name).getBytes(StandardCharsets.UTF_8));
        boolean passwordMatches = MessageDigest.isEqual(password, String.valueOf(secret).getBytes(StandardCharsets.UTF_8));
        if (!(nameMatches & passwordMatches)) {
            return false;
        }
        String payload = Base64.getUrlEncoder().withoutPadding().encodeToString(username.getBytes(StandardCharsets.UTF_8))
                + "." + clock.instant().plus(timeout).getEpochSecond();
        ConsoleCookies.set(request, response, COOKIE, payload + "." + signer.sign(payload), cookiePath,
                (int) timeout.toSeconds());
        return true;
    }

    public void logout(HttpServletRequest request, HttpServletResponse response) {
        ConsoleCookies.set(request, response, COOKIE, "", cookiePath, 0);
    }
}
