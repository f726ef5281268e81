package dev.ratelimit.interceptor.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.config.SysConfigEditor;
import dev.ratelimit.interceptor.fixture.BatchController;
import dev.ratelimit.interceptor.fixture.FixtureApplication;
import dev.ratelimit.interceptor.identity.DenyList;
import dev.ratelimit.interceptor.pages.PagesApplication;
import dev.ratelimit.interceptor.testsupport.HttpProbe;
import dev.ratelimit.interceptor.testsupport.RedisServerProcess;
import java.net.http.HttpResponse;
import java.text.MessageFormat;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.ResourceBundle;
import java.util.UUID;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.web.util.HtmlUtils;

/**
 * A person refused in a browser reads a page, in their language, that says how long to wait; an API
 * client keeps the JSON body; both get the same status and headers. Over HTTP, for every kind of refusal
 * (a limit, a request heavier than its limit, the deny list) and every kind of client (a browser, a JSON
 * client, {@code *}{@code /*}, no {@code Accept}, both ranked either way), in an app with pages,
 * languages and error pages of its own ({@link PagesApplication}: Thymeleaf, {@code ?lang=},
 * {@code error/429.html}) and in an API app with none (the fixture).
 */
class RefusalPagesTest {

    /** What Chrome and Firefox send for a page. */
    static final String BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8";

    private static RedisServerProcess redis;
    private static ConfigurableApplicationContext shopApp;
    private static ConfigurableApplicationContext apiApp;

    enum Client {
        BROWSER_NAVIGATING(BROWSER, true),
        JSON_CLIENT("application/json", false),
        ANYTHING("*/*", false),
        NO_ACCEPT(null, false),
        HTML_RANKED_FIRST("text/html, application/json", true),
        JSON_RANKED_FIRST("application/json, text/html", false),
        HTML_OF_LOWER_QUALITY("text/html;q=0.5, application/json", false),
        HTML_REFUSED("text/html;q=0", false);

        final String accept;
        final boolean readsPage;

        Client(String accept, boolean readsPage) {
            this.accept = accept;
            this.readsPage = readsPage;
        }
    }

    enum Refusal { LIMIT, TOO_COSTLY, DENY_LIST }

    enum App {
        /** Has {@code error/429.html}, and an {@code error/400.html} that fails to render. */
        SHOP,
        /** No error page, no template of its own. */
        API;

        ConfigurableApplicationContext context() {
            return this == SHOP ? shopApp : apiApp;
        }

        HttpProbe http() {
            return new HttpProbe(FixtureApplication.port(context()));
        }

        String limited() {
            return this == SHOP ? "/basket" : "/stacked";
        }

        /** What {@link #limited()} admits per user and minute. */
        int count() {
            return this == SHOP ? 1 : 2;
        }
    }

    private static final String DENIED_USER = "denied-" + UUID.randomUUID().toString().substring(0, 8);

    @BeforeAll
    static void start() {
        redis = RedisServerProcess.start();
        shopApp = PagesApplication.start(redis.port());
        apiApp = FixtureApplication.start(redis.port());
        shopApp.getBean(SysConfigEditor.class).deny(DenyList.Kind.USER, DENIED_USER, null, "test");
        for (App app : App.values()) {
            Awaitility.await("the deny list on " + app).atMost(Duration.ofSeconds(10))
                    .until(() -> app.http().status(app.limited() + "?usercode=" + DENIED_USER) == 403);
        }
    }

    @AfterAll
    static void stop() {
        shopApp.close();
        apiApp.close();
        redis.close();
    }

    static Stream<Arguments> everyRefusalToEveryClient() {
        List<Arguments> cases = new ArrayList<>();
        for (App app : App.values()) {
            for (Refusal refusal : Refusal.values()) {
                for (Client client : Client.values()) {
                    cases.add(Arguments.of(app, refusal, client));
                }
            }
        }
        return cases.stream();
    }

    @ParameterizedTest
    @MethodSource("everyRefusalToEveryClient")
    void aBrowserReadsAPageAndEveryOtherClientTheBodyWithTheSameStatusAndHeaders(App app, Refusal refusal,
                                                                              Client client) {
        HttpResponse<String> refused = refuse(app, refusal, client.accept, "en");
        HttpResponse<String> asJson = refuse(app, refusal, "application/json", "en");

        assertThat(refused.statusCode()).isEqualTo(asJson.statusCode())
                .isEqualTo(refusal == Refusal.LIMIT ? 429 : refusal == Refusal.TOO_COSTLY ? 400 : 403);
        assertThat(refused.headers().firstValue("Cache-Control")).hasValue("no-store");
        assertThat(refused.headers().firstValue("RateLimit-Policy")).isEqualTo(asJson.headers().firstValue("RateLimit-Policy"));
        assertThat(refused.headers().firstValue("RateLimit").isPresent()).isEqualTo(refusal == Refusal.LIMIT);
        assertThat(refused.headers().firstValue("Retry-After").isPresent()).isEqualTo(refusal == Refusal.LIMIT);
        assertThat(asJson.headers().firstValue("Content-Type").orElseThrow()).startsWith("application/json");
        assertThat(asJson.body()).startsWith("{\"error\":");
        if (!client.readsPage) {
            assertThat(refused.headers().firstValue("Content-Type").orElseThrow()).startsWith("application/json");
            assertThat(refused.body()).startsWith("{\"error\":").contains("\"ratelimit\":1");
            return;
        }
        assertThat(refused.headers().firstValue("Content-Type").orElseThrow()).startsWith("text/html");
        String text = HtmlUtils.htmlEscape(message(asJson), "UTF-8");
        if (app == App.SHOP && refusal == Refusal.LIMIT) {
            long wait = Long.parseLong(refused.headers().firstValue("Retry-After").orElseThrow());
            assertThat(refused.body()).as("the shop's own page")
                    .contains("<html lang=\"en\">", "<h1 id=\"shop\">The shop is busy</h1>",
                            "<p id=\"wait\">Please come back in " + wait + " s.</p>",
                            "<p id=\"limiter\">Too many requests. Please try again in " + wait + " second(s).</p>",
                            "<p id=\"status\">429 Too Many Requests /basket</p>");
        } else {
            // The shop's error/400.html fails to render: the limiter's page answers instead of a broken one.
            String title = switch (refusal) {
                case LIMIT -> "Too many requests";
                case TOO_COSTLY -> "Request too large";
                case DENY_LIST -> "Access denied";
            };
            assertThat(refused.body()).as("the limiter's page")
                    .contains("<html lang=\"en\">", "<title>" + title + "</title>", "<h1>" + title + "</h1>",
                            "<p>" + text + "</p>");
        }
    }

    /** The shop's {@code ?lang=de}, which its own {@code LocaleChangeInterceptor} reads, though the limiter refuses first. */
    @Test
    void theAppsLanguageParameterChoosesTheLanguageOfThePageAndOfTheBody() {
        String path = usedUp(App.SHOP, App.SHOP.http());

        HttpResponse<String> page = App.SHOP.http().get(path + "&lang=de", "Accept", BROWSER, "Accept-Language", "es");
        HttpResponse<String> body = App.SHOP.http().get(path + "&lang=de", "Accept-Language", "es");

        long wait = Long.parseLong(page.headers().firstValue("Retry-After").orElseThrow());
        assertThat(page.statusCode()).isEqualTo(429);
        assertThat(page.body()).contains("<html lang=\"de\">", "<h1 id=\"shop\">Im Laden ist viel los</h1>",
                "<p id=\"wait\">Bitte kommen Sie in " + wait + " s wieder.</p>",
                "<p id=\"limiter\">Zu viele Anfragen. Bitte versuchen Sie es in " + wait + " Sekunde(n) erneut.</p>");
        assertThat(message(body)).startsWith("Zu viele Anfragen.");
    }

    @Test
    void withoutAParameterTheAppsLocaleResolverChoosesTheLanguageFromTheBrowser() {
        HttpResponse<String> page = App.SHOP.http().get(usedUp(App.SHOP, App.SHOP.http()),
                "Accept", BROWSER, "Accept-Language", "es-ES,es;q=0.9,en;q=0.5");

        long wait = Long.parseLong(page.headers().firstValue("Retry-After").orElseThrow());
        assertThat(page.body()).contains("<h1 id=\"shop\">La tienda está muy concurrida</h1>",
                "<p id=\"wait\">Vuelva dentro de " + wait + " s.</p>",
                "<p id=\"limiter\">Demasiadas solicitudes. Vuelva a intentarlo dentro de " + wait + " segundo(s).</p>");
    }

    /** The limiter reads the parameter of the app's interceptor, not one of its own: an app without one ignores {@code ?lang=}. */
    @Test
    void anAppWithoutALanguageParameterIsNotGivenOne() {
        HttpResponse<String> page = refuse(App.API, Refusal.LIMIT, BROWSER, "en", "&lang=de");

        assertThat(page.body()).contains("<html lang=\"en\">", "<h1>Too many requests</h1>");
    }

    /** The limiter's own page in every language of the bundle, as the bundle words it. */
    @Test
    void thePageSpeaksEveryLanguageOfTheBundle() {
        for (String language : List.of("en", "de", "es", "fr", "pt-BR", "ko", "ja", "zh-CN", "zh-TW")) {
            HttpResponse<String> page = refuse(App.API, Refusal.LIMIT, BROWSER, language);

            Locale locale = Locale.forLanguageTag(language);
            ResourceBundle bundle = ResourceBundle.getBundle("ratelimit/messages", locale,
                    ResourceBundle.Control.getNoFallbackControl(ResourceBundle.Control.FORMAT_PROPERTIES));
            long wait = Long.parseLong(page.headers().firstValue("Retry-After").orElseThrow());
            String text = new MessageFormat(bundle.getString("ratelimit.rejected"), locale).format(new Object[]{2, 60, wait});
            assertThat(page.body()).as(language).contains("<html lang=\"" + language + "\">",
                    "<h1>" + HtmlUtils.htmlEscape(bundle.getString("ratelimit.page.rejected"), "UTF-8") + "</h1>",
                    "<p>" + HtmlUtils.htmlEscape(text, "UTF-8") + "</p>");
            assertThat(bundle.getLocale().getLanguage()).as(language + " has a file of its own")
                    .isEqualTo(language.equals("en") ? "en" : locale.getLanguage());
        }
    }

    /** {@code ratelimit.response.status=200}: front ends that read the body still get it; a browser reads the page, also with 200. */
    @Test
    void theLegacyContractAnswers200WithThePageOrTheBody() {
        try (ConfigurableApplicationContext legacy = FixtureApplication.start(redis.port(), "ratelimit.response.status=200")) {
            HttpProbe http = new HttpProbe(FixtureApplication.port(legacy));
            String path = usedUp(App.API, http);

            HttpResponse<String> page = http.get(path, "Accept", BROWSER, "Accept-Language", "en");
            HttpResponse<String> body = http.get(path, "Accept-Language", "en");

            assertThat(page.statusCode()).isEqualTo(body.statusCode()).isEqualTo(200);
            assertThat(page.headers().firstValue("Retry-After")).isPresent();
            assertThat(page.body()).contains("<h1>Too many requests</h1>");
            assertThat(body.body()).startsWith("{\"error\":\"Too many requests.").contains("\"ratelimit\":1");
        }
    }

    /** With problem documents the body's type is {@code application/problem+json}: a JSON client that asks for it, or for JSON, gets one. */
    @Test
    void aProblemClientKeepsTheProblemDocument() {
        try (ConfigurableApplicationContext problems = FixtureApplication.start(redis.port(), "ratelimit.response.body=problem")) {
            HttpProbe http = new HttpProbe(FixtureApplication.port(problems));
            String path = usedUp(App.API, http);

            assertThat(http.get(path, "Accept", BROWSER, "Accept-Language", "en").body()).contains("<h1>Too many requests</h1>");
            for (String accept : List.of("application/problem+json", "application/json", "*/*")) {
                HttpResponse<String> problem = http.get(path, "Accept", accept);
                assertThat(problem.headers().firstValue("Content-Type").orElseThrow()).as(accept)
                        .startsWith("application/problem+json");
            }
        }
    }

    private static HttpResponse<String> refuse(App app, Refusal refusal, String accept, String language, String... query) {
        HttpProbe http = app.http();
        List<String> headers = new ArrayList<>(List.of("Accept-Language", language));
        if (accept != null) {
            headers.addAll(List.of("Accept", accept));
        }
        String[] sent = headers.toArray(String[]::new);
        String more = String.join("", query);
        return switch (refusal) {
            case LIMIT -> http.get(usedUp(app, http) + more, sent);
            case TOO_COSTLY -> app == App.SHOP
                    ? http.get("/order?items=a,b,c&usercode=" + user() + more, sent)
                    : http.post(BatchController.path(Algorithm.FIXED_WINDOW) + "?items="
                            + String.join(",", Collections.nCopies(BatchController.UNITS + 1, "x")) + "&usercode=" + user() + more,
                            sent);
            case DENY_LIST -> http.get(app.limited() + "?usercode=" + DENIED_USER + more, sent);
        };
    }

    /** The path of {@code app}'s limited endpoint for a new user who has used up the limit there. */
    private static String usedUp(App app, HttpProbe http) {
        String path = app.limited() + "?usercode=" + user();
        for (int i = 0; i < app.count(); i++) {
            assertThat(http.status(path)).isEqualTo(200);
        }
        return path;
    }

    /** The text of a JSON refusal. */
    static String message(HttpResponse<String> json) {
        String body = json.body();
        int start = body.indexOf("\"error\":\"") + "\"error\":\"".length();
        return body.substring(start, body.indexOf('"', start));
    }

    static String user() {
        return "u" + UUID.randomUUID().toString().substring(0, 12);
    }
}
