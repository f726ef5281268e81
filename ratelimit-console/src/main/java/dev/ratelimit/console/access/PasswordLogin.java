package dev.ratelimit.console.access;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;

/**
 * The console's own login: the {@link ConsoleUsers} of the properties. A successful login sets a signed
 * cookie ({@code name.expiry.session.password-mark.signature}; HttpOnly, SameSite=Strict, Secure over
 * HTTPS, scoped to the console path), so it works on every instance that shares
 * {@code ratelimit.console.secret} and leaves the app's own session alone. Each login is a session of
 * its own (a random id); a logout revokes it on every instance ({@link SessionRevocations}); a new
 * password ends every session made with the old one (the mark is derived from the stored password), and
 * a user removed from the properties is signed out. The role and modules are the user's as configured
 * now, not as they were at login. The console's CSRF token is bound to the session.
 */
public class PasswordLogin implements ConsoleAccessPolicy.WithRoles {

    static final String COOKIE = "rlc_session";
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String SESSION_ATTRIBUTE = PasswordLogin.class.getName() + ".session";

    private final ConsoleUsers users;
    private final HmacSigner signer;
    private final SessionRevocations revocations;
    private final Duration timeout;
    private final String cookiePath;
    private final Clock clock;

    public PasswordLogin(ConsoleUsers users, HmacSigner signer, SessionRevocations revocations,
                         Duration timeout, String cookiePath, Clock clock) {
        this.users = users;
        this.signer = signer;
        this.revocations = revocations;
        this.timeout = timeout;
        this.cookiePath = cookiePath;
        this.clock = clock;
    }

    @Override
    public ConsoleOperator access(HttpServletRequest request) {
        Session session = session(request);
        return session == null ? null : session.operator();
    }

    /** The login's random id: the CSRF token is bound to it, so it changes with every login. */
    @Override
    public String sessionId(HttpServletRequest request) {
        Session session = session(request);
        return session == null ? null : session.id();
    }

    /** Checks the credentials and sets the login cookie of a new session when they match. */
    public boolean login(String name, String secret, HttpServletRequest request, HttpServletResponse response) {
        ConsoleOperator operator = users.authenticate(name, secret);
        if (operator == null) {
            return false;
        }
        byte[] id = new byte[18];
        RANDOM.nextBytes(id);
        String payload = Base64.getUrlEncoder().withoutPadding().encodeToString(name.getBytes(StandardCharsets.UTF_8))
                + "." + clock.instant().plus(timeout).getEpochSecond()
                + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(id)
                + "." + passwordMark(name);
        ConsoleCookies.set(request, response, COOKIE, payload + "." + signer.sign(payload), cookiePath,
                (int) timeout.toSeconds());
        return true;
    }

    /** Ends this login on every instance, and removes its cookie. */
    public void logout(HttpServletRequest request, HttpServletResponse response) {
        Session session = session(request);
        if (session != null) {
            revocations.revoke(session.id(), Duration.between(clock.instant(), session.expiry()));
        }
        ConsoleCookies.set(request, response, COOKIE, "", cookiePath, 0);
    }

    /** The request's valid session, read once per request. */
    private Session session(HttpServletRequest request) {
        Object known = request.getAttribute(SESSION_ATTRIBUTE);
        if (known instanceof Session session) {
            return session;
        }
        Session session = read(ConsoleCookies.value(request, COOKIE));
        if (session != null) {
            request.setAttribute(SESSION_ATTRIBUTE, session);
        }
        return session;
    }

    private Session read(String token) {
        if (token == null) {
            return null;
        }
        String[] parts = token.split("\\.");
        if (parts.length != 5) {
            return null;
        }
        String payload = String.join(".", parts[0], parts[1], parts[2], parts[3]);
        if (!signer.verify(payload, parts[4])) {
            return null;
        }
        String name;
        try {
            name = new String(Base64.getUrlDecoder().decode(parts[0]), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return null;
        }
        ConsoleOperator operator = users.operator(name);
        if (operator == null || !parts[3].equals(passwordMark(name))) {
            return null;
        }
        Instant expiry;
        try {
            expiry = Instant.ofEpochSecond(Long.parseLong(parts[1]));
        } catch (NumberFormatException e) {
            return null;
        }
        if (expiry.isBefore(clock.instant()) || revocations.isRevoked(parts[2])) {
            return null;
        }
        return new Session(operator, parts[2], expiry);
    }

    /** Derived from the user's stored password, so that a new one ends the sessions of the old. */
    private String passwordMark(String name) {
        return signer.sign("password:" + name + ":" + users.storedPassword(name)).substring(0, 16);
    }

    private record Session(ConsoleOperator operator, String id, Instant expiry) {
    }
}
