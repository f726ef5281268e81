package dev.ratelimit.console.access;

import dev.ratelimit.console.PageNotes;
import dev.ratelimit.interceptor.identity.TrustedProxyResolver;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.Base64;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.util.UrlPathHelper;

/**
 * Guards every console request: picks the language, lets assets and the login page through, asks the
 * {@link ConsoleAccessPolicy} who the operator is (to the login page or 403 when nobody), and rejects
 * any state-changing request without the CSRF token of the operator's session; the request then gets the
 * operator's {@link PageNotes}, signed by the same key as the token. Every answer carries a
 * Content-Security-Policy that the console's pages satisfy (scripts and styles from the console only,
 * nothing inline) and the other security headers; behind a trusted proxy that terminated TLS the
 * request counts as secure (so cookies are {@code Secure}). It touches no request outside the console
 * path, so the host app's own security is unchanged.
 */
public class ConsoleFilter extends OncePerRequestFilter {

    public static final String OPERATOR_ATTRIBUTE = "ratelimitConsoleOperator";
    public static final String CSRF_ATTRIBUTE = "ratelimitConsoleCsrf";
    /**
     * Not {@code _csrf}: in an app with Spring Security, Thymeleaf forms also get Spring's hidden
     * {@code _csrf} field, placed first, and the console would read the app's token instead of its own.
     */
    static final String CSRF_PARAMETER = "ratelimit_csrf";
    static final String CSRF_HEADER = "X-CSRF-Token";
    static final String LOGIN_CSRF_COOKIE = "rlc_login";
    private static final Set<String> SAFE_METHODS = Set.of("GET", "HEAD", "OPTIONS");
    private static final SecureRandom RANDOM = new SecureRandom();
    static final String CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; "
            + "img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

    private final String path;
    private final ConsoleAccessPolicy policy;
    private final HmacSigner signer;
    private final TrustedProxyResolver proxies;

    /** @param proxies whose forwarding headers say whether the client used HTTPS */
    public ConsoleFilter(String path, ConsoleAccessPolicy policy, HmacSigner signer, TrustedProxyResolver proxies) {
        this.path = path;
        this.policy = policy;
        this.signer = signer;
        this.proxies = proxies;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        String within = pathWithinApp(request);
        return !(within.equals(path) || within.startsWith(path + "/"));
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        ConsoleRequest secured = new ConsoleRequest(request, proxies.isSecure(request));
        secured.locale = ConsoleLocales.resolve(secured, response, path);
        String within = pathWithinApp(request);
        boolean safe = isSafe(request);
        response.setHeader("Content-Security-Policy", CONTENT_SECURITY_POLICY);
        response.setHeader("X-Frame-Options", "DENY");
        response.setHeader("X-Content-Type-Options", "nosniff");
        response.setHeader("Referrer-Policy", "same-origin");
        if (within.startsWith(path + "/assets/")) {
            chain.doFilter(secured, response);
            return;
        }
        if (within.equals(path + "/login") && policy instanceof PasswordLogin) {
            guardLogin(secured, response, chain, safe);
            return;
        }
        ConsoleOperator operator = policy.access(secured);
        if (operator == null) {
            if (safe && policy instanceof PasswordLogin) {
                response.sendRedirect(request.getContextPath() + path + "/login");
            } else {
                response.sendError(HttpServletResponse.SC_FORBIDDEN);
            }
            return;
        }
        String csrf = "csrf:" + policy.sessionId(secured);
        if (!safe && !signer.verify(csrf, submittedToken(request))) {
            response.sendError(HttpServletResponse.SC_FORBIDDEN, "Missing or wrong CSRF token");
            return;
        }
        response.setHeader("Cache-Control", "no-store");
        request.setAttribute(OPERATOR_ATTRIBUTE, operator);
        request.setAttribute(CSRF_ATTRIBUTE, signer.sign(csrf));
        PageNotes.attach(secured, signer, operator.name(), Clock.systemUTC());
        chain.doFilter(secured, response);
    }

    /** The login form is protected by a double-submit token: a random cookie the form must repeat. */
    private void guardLogin(HttpServletRequest request, HttpServletResponse response, FilterChain chain, boolean safe)
            throws IOException, ServletException {
        String token = ConsoleCookies.value(request, LOGIN_CSRF_COOKIE);
        if (!safe && (token == null || !token.equals(submittedToken(request)))) {
            response.sendError(HttpServletResponse.SC_FORBIDDEN, "Missing or wrong CSRF token");
            return;
        }
        if (token == null) {
            byte[] random = new byte[24];
            RANDOM.nextBytes(random);
            token = Base64.getUrlEncoder().withoutPadding().encodeToString(random);
            ConsoleCookies.set(request, response, LOGIN_CSRF_COOKIE, token, path, -1);
        }
        request.setAttribute(CSRF_ATTRIBUTE, token);
        chain.doFilter(request, response);
    }

    /** Whether the request only reads (GET, HEAD, OPTIONS): one that changes state needs the CSRF token. */
    public static boolean isSafe(HttpServletRequest request) {
        return SAFE_METHODS.contains(request.getMethod());
    }

    private static String submittedToken(HttpServletRequest request) {
        String header = request.getHeader(CSRF_HEADER);
        return header != null ? header : request.getParameter(CSRF_PARAMETER);
    }

    /** Decoded, without {@code ;params} and duplicate slashes: the path Spring MVC matches handlers against. */
    private static String pathWithinApp(HttpServletRequest request) {
        return UrlPathHelper.defaultInstance.getPathWithinApplication(request);
    }

    /**
     * Makes the console's language the request's, which Thymeleaf and the message source then use, and
     * the request secure when a trusted proxy says the client used HTTPS.
     */
    private static final class ConsoleRequest extends HttpServletRequestWrapper {

        private final boolean secure;
        private Locale locale;

        ConsoleRequest(HttpServletRequest request, boolean secure) {
            super(request);
            this.secure = secure;
        }

        @Override
        public boolean isSecure() {
            return secure;
        }

        @Override
        public Locale getLocale() {
            return locale == null ? super.getLocale() : locale;
        }

        @Override
        public Enumeration<Locale> getLocales() {
            return locale == null ? super.getLocales() : Collections.enumeration(List.of(locale));
        }
    }
}
