package dev.ratelimit.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.console.rules.ConsoleRules;
import dev.ratelimit.interceptor.blocked.BlockedClient;
import dev.ratelimit.interceptor.blocked.BlockedClients;
import dev.ratelimit.interceptor.config.RulesInForce;
import dev.ratelimit.interceptor.fixture.FixtureApplication;
import dev.ratelimit.interceptor.identity.DenyList;
import dev.ratelimit.interceptor.testsupport.HttpProbe;
import dev.ratelimit.interceptor.testsupport.RedisServerProcess;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.web.util.HtmlUtils;

/**
 * Every page of the console and every actuator view of the limiter, with a rule of every kind in force and
 * a client of every kind blocked and denied ({@link EveryKind}), read by a viewer and by an operator: each
 * answers 200 and nothing is logged at ERROR. The pages are the console's GET handler mappings, each with
 * the parameters it takes from the data the test made (the rule page for every rule, the log for every rule
 * and reason...), and every console link those pages show; the kinds come from the rule model's enums. A
 * new page, a new parameter or a new kind is so covered without a new test, or fails here for want of a
 * fixture.
 */
class ConsolePagesMatrixTest {

    private static final String CONSOLE = "/ratelimit-console";
    private static final String VIEWER = "watcher";
    private static final String VIEWER_PASSWORD = "look";
    /** Two write intervals of the blocked clients (the shipped 5 s) and the log writer, with a margin. */
    private static final Duration WRITTEN = Duration.ofSeconds(20);
    private static final Pattern LINK = Pattern.compile("href=\"(" + CONSOLE + "[^\"#]*)\"");
    /** How a listing is sorted and paged: a link that only orders a listing already read differently is read once. */
    /** The fields of a page's forms. */
    private static final Pattern FIELD = Pattern.compile("<(?:input|select|textarea)[^>]* name=\"([^\"]+)\"");
    private static final String FORGED = "Call 555-0100 now";
    /** How Thymeleaf shows a text that no message resolver has: {@code ??console.title_de??}. */
    private static final Pattern ABSENT_TEXT = Pattern.compile("\\?\\?[\\w.-]+_[\\w-]*\\?\\?");
    private static final Pattern ORDER = Pattern.compile("\\b(sort|dir|page)=[^&]*");

    private static RedisServerProcess redis;
    private static ConfigurableApplicationContext app;
    private static ErrorLog errors;
    private static HttpProbe http;

    @BeforeAll
    static void start() {
        errors = ErrorLog.capture();
        redis = RedisServerProcess.start();
        app = FixtureApplication.start(redis.port(), ConsoleSession.PASSWORD_PROPERTY,
                "ratelimit.console.users." + VIEWER + ".password={noop}" + VIEWER_PASSWORD,
                "spring.datasource.url=jdbc:h2:mem:console-pages-matrix;DB_CLOSE_DELAY=-1",
                "management.endpoints.web.exposure.include=*");
        http = new HttpProbe(FixtureApplication.port(app));
        EveryKind.ruleAndClientOfEachKind(app, http);
        EveryKind.denyOneOfEachKind(app, http);
        Awaitility.await("a client of every kind listed as blocked").atMost(WRITTEN)
                .until(() -> EveryKind.missingClientKinds(blocked(), rules()), Set::isEmpty);
        ConsoleSession admin = signedIn("admin", ConsoleSession.PASSWORD);
        Awaitility.await("the deny list's refusals logged").atMost(WRITTEN)
                .until(() -> admin.get(CONSOLE + "/logs?reason=deny").body().contains(DenyList.Kind.IP.rule()));
        assertThat(errors.since(0)).as("logged at ERROR while the app started and the clients were refused").isEmpty();
    }

    @AfterAll
    static void stop() {
        if (app != null) {
            app.close();
        }
        if (redis != null) {
            redis.close();
        }
        if (errors != null) {
            errors.close();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"admin", VIEWER})
    void everyPageAndActuatorViewAnswersWithEveryKindOfRuleAndClientAndNothingIsLoggedAtError(String user) {
        assertThat(EveryKind.missingRuleKinds(rules())).as("kinds of rule without a fixture in force").isEmpty();
        assertThat(EveryKind.missingClientKinds(blocked(), rules())).as("kinds of client without a fixture blocked").isEmpty();
        assertThat(rules().snapshot().denyList().entries().stream().map(DenyList.Entry::kind).distinct())
                .as("a deny-list entry of every kind").containsExactlyInAnyOrder(DenyList.Kind.values());
        ConsoleSession session = signedIn(user, user.equals(VIEWER) ? VIEWER_PASSWORD : ConsoleSession.PASSWORD);
        int before = errors.mark();

        Map<String, String> answered = new TreeMap<>();
        Set<String> pages = consolePages();
        Set<String> linked = new LinkedHashSet<>();
        for (String page : pages) {
            answered.put(page, read(() -> session.get(page), linked));
        }
        linked.removeAll(pages);
        Set<String> shapes = new HashSet<>();
        linked.stream().filter(page -> shapes.add(ORDER.matcher(page).replaceAll("$1=")))
                .forEach(page -> answered.put(page, read(() -> session.get(page), new LinkedHashSet<>())));
        actuatorViews().forEach(view -> answered.put(view, read(() -> http.get(view), new LinkedHashSet<>())));

        assertThat(answered).as("pages read").hasSizeGreaterThan(pages.size());
        assertThat(answered.entrySet().stream().filter(page -> !page.getValue().equals("200")).map(Map.Entry::toString))
                .as("pages that did not answer 200").isEmpty();
        assertThat(errors.since(before)).as("logged at ERROR").isEmpty();
    }

    /**
     * A link cannot make a page say something, nor fill in its forms: each page with every note a redirect
     * can carry and every field of its forms as typed, unsigned, shows none of it.
     */
    @ParameterizedTest
    @ValueSource(strings = {"admin", VIEWER})
    void noPageShowsTheNotesOrTypedValuesOfALink(String user) {
        ConsoleSession session = signedIn(user, user.equals(VIEWER) ? VIEWER_PASSWORD : ConsoleSession.PASSWORD);
        Map<String, String> onePerPath = new TreeMap<>();
        consolePages().forEach(page -> onePerPath.putIfAbsent(page.replaceFirst("\\?.*", ""), page));
        Map<String, String> shown = new TreeMap<>();
        onePerPath.values().forEach(page -> {
            QueryString forged = QueryString.of();
            PageNotes.NAMES.forEach(name -> forged.add(name, name.equals(PageNotes.REFUSED) ? "console.error.refused" : FORGED));
            Set<String> fields = new TreeSet<>();
            Matcher field = FIELD.matcher(session.get(page).body());
            while (field.find()) {
                fields.add(field.group(1));
            }
            fields.forEach(name -> forged.add(PageNotes.TYPED + name, FORGED));
            HttpResponse<String> answer = session.get(forged.appendTo(page));
            if (answer.statusCode() != 200 || answer.body().contains(FORGED)) {
                shown.put(page, answer.statusCode() + (answer.body().contains(FORGED) ? " shows the link's text" : ""));
            }
        });

        assertThat(onePerPath).as("pages").containsKeys(CONSOLE + "/rules", CONSOLE + "/blocked", CONSOLE + "/deny-list");
        assertThat(shown).isEmpty();
    }

    /** The console's own redirect shows its note to the operator who posted, and to nobody who follows the link. */
    @Test
    void aRefusalShowsToTheOperatorWhoPostedOnly() {
        ConsoleSession admin = signedIn("admin", ConsoleSession.PASSWORD);
        admin.get(CONSOLE + "/deny-list");
        HttpResponse<String> refused = admin.post(CONSOLE + "/deny-list/add", "kind", "ip", "target", "not-an-address",
                "duration", "1h");
        String location = refused.headers().firstValue("Location").orElseThrow();

        assertThat(admin.follow(refused).body()).contains("&#39;not-an-address&#39; is not an IP address")
                .contains("value=\"not-an-address\"");
        HttpResponse<String> followed = signedIn(VIEWER, VIEWER_PASSWORD).get(URI.create(location).getRawPath() + "?"
                + URI.create(location).getRawQuery());
        assertThat(followed.statusCode()).isEqualTo(200);
        assertThat(followed.body()).doesNotContain("not-an-address");
    }

    /**
     * An address of the console that is no page, or a form visited, answers the console's own error page to
     * a browser, and Spring Boot's JSON to a client that asks for it; nothing is logged at ERROR.
     */
    @Test
    void anAddressThatIsNoPageAnswersTheConsolesErrorPage() {
        ConsoleSession browser = new ConsoleSession(FixtureApplication.port(app), Map.of("Accept", "text/html"));
        browser.login("admin", ConsoleSession.PASSWORD);
        int before = errors.mark();
        Map<String, String> meanings = Map.of(CONSOLE + "/no-such-page", "There is no such page in the console.",
                CONSOLE + "//rules", "There is no such page in the console.",
                CONSOLE + "/blocked/unblock", "This address takes a form of the console, not a visit.");

        meanings.forEach((address, meaning) -> {
            HttpResponse<String> page = browser.get(address);
            assertThat(page.statusCode()).as(address).isIn(404, 405);
            assertThat(page.body()).as(address).contains("<h1>Error " + page.statusCode() + "</h1>").contains(meaning)
                    .contains("href=\"" + CONSOLE + "/\"").contains(CONSOLE + "/assets/console.css");
        });
        HttpResponse<String> json = signedIn("admin", ConsoleSession.PASSWORD).get(CONSOLE + "/no-such-page");
        assertThat(json.headers().firstValue("Content-Type").orElseThrow()).startsWith("application/json");
        assertThat(errors.since(before)).isEmpty();
    }

    /** The status of a page, or how its answer broke off; the console links of an HTML page go to {@code links}. */
    private static String read(Supplier<HttpResponse<String>> page, Set<String> links) {
        try {
            HttpResponse<String> response = page.get();
            if (response.headers().firstValue("Content-Type").orElse("").startsWith("text/html")) {
                Matcher link = LINK.matcher(response.body());
                while (link.find()) {
                    links.add(HtmlUtils.htmlUnescape(link.group(1)));
                }
                Matcher missing = ABSENT_TEXT.matcher(response.body());
                if (missing.find()) {
                    return response.statusCode() + " without its text " + missing.group();
                }
            }
            return Integer.toString(response.statusCode());
        } catch (UncheckedIOException e) {
            return "broken off: " + e.getMessage();
        }
    }

    /** The limiter's actuator endpoints (Spring Boot's own left to Spring Boot) and the health it reports to, without credentials. */
    private static List<String> actuatorViews() {
        List<String> views = new ArrayList<>(List.of("/actuator/health"));
        app.getBeansWithAnnotation(Endpoint.class).values().stream()
                .map(bean -> bean.getClass().getAnnotation(Endpoint.class) == null ? null : bean)
                .filter(bean -> bean != null && bean.getClass().getPackageName().startsWith("dev.ratelimit"))
                .map(bean -> "/actuator/" + bean.getClass().getAnnotation(Endpoint.class).id())
                .forEach(views::add);
        assertThat(views).as("the limiter's endpoints").hasSizeGreaterThan(1);
        return views;
    }

    private static ConsoleSession signedIn(String user, String password) {
        ConsoleSession session = new ConsoleSession(FixtureApplication.port(app));
        assertThat(session.login(user, password).statusCode()).as(user + " signed in").isEqualTo(302);
        return session;
    }

    private static Set<String> consolePages() {
        return ConsolePages.of(app, ConsolePages.parameterValues(rules(), blocked()));
    }

    private static RulesInForce rules() {
        return app.getBean(ConsoleRules.class).now();
    }

    private static List<BlockedClient> blocked() {
        return app.getBean(BlockedClients.class).now(List.of(EveryKind.MODULE), 500);
    }
}
