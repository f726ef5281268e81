package dev.ratelimit.console;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.CookieManager;
import java.net.HttpCookie;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/** A browser-like HTTP client for the console: keeps cookies, and posts forms with the CSRF token of the last page. */
public final class ConsoleSession {

    /** The operator's password the console tests start apps with. */
    public static final String PASSWORD = "s3cret";
    /** The property that sets it. */
    public static final String PASSWORD_PROPERTY = "ratelimit.console.password=" + PASSWORD;

    private static final Pattern CSRF = Pattern.compile("name=\"ratelimit_csrf\" value=\"([^\"]*)\"");

    private final String base;
    private final CookieManager cookies = new CookieManager();
    private final HttpClient client = HttpClient.newBuilder().cookieHandler(cookies)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private final Map<String, String> headers;
    private String csrf = "";

    public ConsoleSession(int port) {
        this(port, Map.of());
    }

    /** A session that sends {@code headers} with every request. */
    public ConsoleSession(int port, Map<String, String> headers) {
        this.base = "http://127.0.0.1:" + port;
        this.headers = Map.copyOf(headers);
    }

    /** A session of the built-in operator, signed in on the app at {@code port}. */
    public static ConsoleSession signedIn(int port) {
        ConsoleSession session = new ConsoleSession(port);
        HttpResponse<String> login = session.login("admin", PASSWORD);
        if (login.statusCode() != 302) {
            throw new IllegalStateException("Login refused: " + login.statusCode());
        }
        return session;
    }

    public HttpResponse<String> get(String path) {
        HttpResponse<String> response = send(HttpRequest.newBuilder(URI.create(base + path)).GET());
        Matcher token = CSRF.matcher(response.body());
        if (token.find()) {
            csrf = token.group(1);
        }
        return response;
    }

    /** The body of a download. */
    public byte[] bytes(String path) {
        HttpResponse<byte[]> response = exchange(client, HttpRequest.newBuilder(URI.create(base + path))
                .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofByteArray());
        if (response.statusCode() != 200) {
            throw new IllegalStateException(path + " answered " + response.statusCode());
        }
        return response.body();
    }

    /** Posts a form with the CSRF token of the last page fetched. */
    public HttpResponse<String> post(String path, String... fields) {
        Map<String, String> form = new LinkedHashMap<>();
        form.put("ratelimit_csrf", csrf);
        for (int i = 0; i < fields.length; i += 2) {
            form.put(fields[i], fields[i + 1]);
        }
        return postRaw(path, form);
    }

    public HttpResponse<String> postRaw(String path, Map<String, String> form) {
        String body = form.entrySet().stream()
                .map(field -> encode(field.getKey()) + "=" + encode(field.getValue()))
                .collect(Collectors.joining("&"));
        return send(HttpRequest.newBuilder(URI.create(base + path))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    /** Follows a redirect: GET of its {@code Location}, relative to this session's server. */
    public HttpResponse<String> follow(HttpResponse<String> redirect) {
        String location = redirect.headers().firstValue("Location")
                .orElseThrow(() -> new IllegalStateException("not a redirect: " + redirect.statusCode()));
        return get(location.startsWith("http") ? URI.create(location).getRawPath()
                + (URI.create(location).getRawQuery() == null ? "" : "?" + URI.create(location).getRawQuery()) : location);
    }

    public HttpResponse<String> login(String user, String password) {
        get("/ratelimit-console/login");
        return post("/ratelimit-console/login", "username", user, "password", password);
    }

    public String csrf() {
        return csrf;
    }

    /** The value of a cookie this session holds, or {@code null}. */
    public String cookie(String name) {
        return cookies.getCookieStore().getCookies().stream().filter(cookie -> cookie.getName().equals(name))
                .map(HttpCookie::getValue).findFirst().orElse(null);
    }

    /** Holds a cookie as if the server had set it: a copy of another client's. */
    public void setCookie(String name, String value) {
        HttpCookie cookie = new HttpCookie(name, value);
        cookie.setPath("/ratelimit-console");
        cookie.setVersion(0);
        cookies.getCookieStore().add(URI.create(base), cookie);
    }

    private HttpResponse<String> send(HttpRequest.Builder request) {
        headers.forEach(request::header);
        return exchange(client, request.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Sends a request, with the checked exceptions of {@link HttpClient#send} as unchecked ones. */
    public static <T> HttpResponse<T> exchange(HttpClient client, HttpRequest request, HttpResponse.BodyHandler<T> body) {
        try {
            return client.send(request, body);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
