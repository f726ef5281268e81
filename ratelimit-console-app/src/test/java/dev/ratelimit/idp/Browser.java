package dev.ratelimit.idp;

import dev.ratelimit.console.ConsoleSession;
import java.net.CookieManager;
import java.net.HttpCookie;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Signs a user in to an app through the identity provider's login form, as a browser does: keeps the
 * cookies of both, follows each redirect itself (across the two apps) and fills in the form with the
 * provider's CSRF token.
 */
public final class Browser {

    private static final Pattern SPRING_CSRF = Pattern.compile("name=\"_csrf\"[^>]*value=\"([^\"]*)\"");
    private static final int MAX_REDIRECTS = 10;

    private final CookieManager cookies = new CookieManager();
    private final HttpClient client = HttpClient.newBuilder().cookieHandler(cookies)
            .followRedirects(HttpClient.Redirect.NEVER).connectTimeout(Duration.ofSeconds(5)).build();

    /**
     * Opens {@code page}, is sent to the provider's login form, signs in there and follows the redirects
     * back to the app; the answer of the app at the end.
     */
    public HttpResponse<String> signIn(URI page, String username, String password) {
        HttpResponse<String> loginForm = redirected(send(HttpRequest.newBuilder(page).GET()));
        if (loginForm.statusCode() != 200 || !loginForm.body().contains("name=\"password\"")) {
            throw new IllegalStateException("No login form at " + loginForm.uri() + ": " + loginForm.statusCode());
        }
        String form = "username=" + encode(username) + "&password=" + encode(password) + "&_csrf=" + encode(springCsrf(loginForm.body()));
        return redirected(send(HttpRequest.newBuilder(loginForm.uri()).header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form))));
    }

    /** A cookie the browser holds for {@code site}, or {@code null}. */
    public String cookie(URI site, String name) {
        return cookies.getCookieStore().get(site).stream().filter(cookie -> cookie.getName().equals(name))
                .map(HttpCookie::getValue).findFirst().orElse(null);
    }

    /** Spring Security's CSRF token in a page: its login form has one, Thymeleaf adds one to every form. */
    public static String springCsrf(String page) {
        Matcher token = SPRING_CSRF.matcher(page);
        if (!token.find()) {
            throw new IllegalStateException("No Spring Security CSRF token in the page");
        }
        return token.group(1);
    }

    private HttpResponse<String> redirected(HttpResponse<String> response) {
        for (int i = 0; i < MAX_REDIRECTS && response.statusCode() / 100 == 3; i++) {
            URI next = response.uri().resolve(response.headers().firstValue("Location").orElseThrow());
            response = send(HttpRequest.newBuilder(next).GET());
        }
        return response;
    }

    private HttpResponse<String> send(HttpRequest.Builder request) {
        // as a browser does: the provider sends only HTML clients to its login form, others get a 401
        request.header("Accept", "text/html");
        return ConsoleSession.exchange(client, request.timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
