package dev.ratelimit.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.console.access.ConsoleLocales;
import dev.ratelimit.console.logs.LogColumn;
import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.fixture.AlgorithmController;
import dev.ratelimit.interceptor.testsupport.HttpProbe;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.ResourceBundle;
import java.util.TreeMap;
import org.apache.poi.xssf.usermodel.XSSFWorkbook;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.web.util.HtmlUtils;

/**
 * The blocked clients page: a client refused by two instances, listed once, with "deny for ..." beside it,
 * and Unblock, audited; the deny list page: add with a duration or an end, refused on every instance within
 * a second, remove, audited, a refused value explained in the operator's language.
 */
class ConsoleBlockedTest {

    private static final String CONSOLE = "/ratelimit-console";
    private static final String MEMBER = "AlgorithmController.fixedWindow:USER:";
    /** Two write intervals of the instances (the shipped 5 s) and a margin. */
    private static final Duration LISTED = Duration.ofSeconds(15);
    private static final Duration UNBLOCKED_EVERYWHERE = Duration.ofSeconds(1);
    private static final Duration DENIED_EVERYWHERE = Duration.ofSeconds(1);
    private static final String SYSCONFIG = "ratelimit:sysconfig";
    /** Entries the deny-list page lists at once. */
    private static final int PER_PAGE = 500;

    private static ConsoleInstances instances;

    @BeforeAll
    static void start() {
        instances = ConsoleInstances.start("console-blocked", 2);
    }

    @AfterAll
    static void stop() {
        instances.close();
    }

    @Test
    void aClientRefusedByTwoInstancesIsListedOnceAndUnblockFreesItEverywhereAndIsAudited() {
        HttpProbe[] probes = {instances.probe(0), instances.probe(1)};
        String path = AlgorithmController.path(Algorithm.FIXED_WINDOW) + "?usercode=mallory";
        for (int i = 0; i < AlgorithmController.LIMIT + 4; i++) {
            probes[i % 2].status(path);
        }
        ConsoleSession console = instances.signedIn(0);

        String page = Awaitility.await("mallory listed").atMost(LISTED)
                .until(() -> console.get(CONSOLE + "/blocked").body(), body -> body.contains("mallory"));

        assertThat(page).contains("fixture.AlgorithmController.fixedWindow");
        assertThat(occurrences(page, "name=\"member\"")).isEqualTo(1);
        assertThat(page).as("deny for ... beside the client").contains("action=\"/ratelimit-console/deny-list/add\"")
                .contains("name=\"kind\" value=\"user\"").contains("name=\"target\" value=\"mallory\"");
        assertThat(probes[0].status(path)).isEqualTo(429);

        HttpResponse<String> unblocked = console.post(CONSOLE + "/blocked/unblock", "module", "fixture",
                "member", MEMBER + "mallory");

        assertThat(unblocked.statusCode()).isEqualTo(302);
        assertThat(console.follow(unblocked).body()).contains("Unblocked: " + MEMBER + "mallory")
                .contains("No client is blocked now.");
        for (HttpProbe instance : probes) {
            Awaitility.await("admitted again").atMost(UNBLOCKED_EVERYWHERE).until(() -> instance.status(path) == 200);
        }
        assertThat(console.get(CONSOLE + "/audit").body()).contains("unblock fixture " + MEMBER + "mallory")
                .contains("unblocked");
        assertThat(console.get(CONSOLE + "/rule?module=fixture&rule=AlgorithmController.fixedWindow").body())
                .as("in the rule's history").contains("unblock fixture " + MEMBER + "mallory");
    }

    @Test
    void aClientDeniedOnTheDenyListPageIsRefusedEverywhereLoggedUntilRemovedAndBothAreAudited() throws IOException {
        HttpProbe[] probes = {instances.probe(0), instances.probe(1)};
        ConsoleSession console = instances.signedIn(1);
        console.get(CONSOLE + "/deny-list");

        HttpResponse<String> added = console.post(CONSOLE + "/deny-list/add", "kind", "user", "target", " eve-console ",
                "duration", "15m", "note", "scraping /api/search");

        assertThat(added.statusCode()).isEqualTo(302);
        String page = console.follow(added).body();
        assertThat(page).contains("Denied: deny.user.eve-console");
        String row = between(page, "id=\"deny-list\"", "</table>");
        assertThat(row).contains("<td class=\"wrap\">eve-console</td>").contains("scraping /api/search")
                .contains("admin at ");
        for (HttpProbe instance : probes) {
            Awaitility.await("refused").atMost(DENIED_EVERYWHERE).until(() -> instance.status("/open/plain?usercode=eve-console") == 403);
        }
        String logged = Awaitility.await("logged as the deny list's").atMost(Duration.ofSeconds(10))
                .until(() -> console.get(CONSOLE + "/logs?reason=deny&user=eve-console").body(),
                        body -> between(body, "id=\"log-rows\"", "</table>").contains("fixture.deny.user"));
        assertThat(between(logged, "id=\"log-rows\"", "</table>")).containsPattern("<td class=\"wrap\">\\s*deny\\s*</td>");
        assertThat(console.get(CONSOLE + "/logs?reason=limit&user=eve-console").body()).contains("Total: 0");
        try (XSSFWorkbook export = new XSSFWorkbook(new ByteArrayInputStream(
                console.bytes(CONSOLE + "/logs/export?reason=deny&user=eve-console")))) {
            assertThat(export.getSheetAt(0).getRow(1).getCell(LogColumn.REASON.ordinal()).getStringCellValue())
                    .isEqualTo("deny");
        }

        HttpResponse<String> removed = console.post(CONSOLE + "/deny-list/remove", "kind", "user", "target", "eve-console");

        assertThat(console.follow(removed).body()).contains("Removed from the deny list: eve-console")
                .contains("No client is denied.");
        for (HttpProbe instance : probes) {
            Awaitility.await("admitted").atMost(DENIED_EVERYWHERE).until(() -> instance.status("/open/plain?usercode=eve-console") == 200);
        }
        String audit = console.get(CONSOLE + "/audit").body();
        assertThat(occurrences(audit, "deny.user.eve-console")).as("added and removed").isEqualTo(2);
    }

    @Test
    void aBlockUntilATimeIsListedWithItsEndAndARefusedValueIsExplainedInTheOperatorsLanguage() {
        ConsoleSession console = instances.signedIn(0);
        console.get(CONSOLE + "/deny-list?lang=ja");

        HttpResponse<String> refused = console.post(CONSOLE + "/deny-list/add", "kind", "ip", "target", "not-an-ip",
                "duration", "1h");
        String page = console.follow(refused).body();
        assertThat(page).contains("deny.ip: &#39;not-an-ip&#39; は IP アドレスでも CIDR ブロックでもありません")
                .contains("value=\"not-an-ip\"").contains("拒否リスト");

        console.post(CONSOLE + "/deny-list/add", "kind", "ip", "target", "2001:DB8::7/48", "until", "2099-01-02T03:04");
        page = console.get(CONSOLE + "/deny-list?lang=en").body();
        assertThat(between(page, "id=\"deny-list\"", "</table>")).contains("2001:db8::/48").contains("2099-01-02 03:04:00");
        console.post(CONSOLE + "/deny-list/remove", "kind", "ip", "target", "2001:db8::/48");
    }

    /**
     * A note the entry cannot keep (a line break, more than 200 characters) is refused with the reason, and
     * comes back whole in a field that keeps line breaks: a one-line input drops them and its maxlength cuts a
     * paste, both without a word.
     */
    @Test
    void aNoteWithALineBreakOrTooLongIsRefusedAndComesBackAsTyped() {
        ConsoleSession console = instances.signedIn(0);
        console.get(CONSOLE + "/deny-list");
        for (String note : new String[] {"scraping /api/search\nsince 09:00", "x".repeat(201)}) {
            HttpResponse<String> refused = console.post(CONSOLE + "/deny-list/add", "kind", "user", "target", "noted",
                    "duration", "1h", "note", note);

            String page = console.follow(refused).body();
            assertThat(page).contains("a note is one line of at most 200 characters: no line breaks or other control characters")
                    .contains("<textarea name=\"note\" rows=\"1\" cols=\"32\">" + note + "</textarea>")
                    .doesNotContain("maxlength");
            assertThat(between(page, "id=\"deny-list\"", "</table>")).doesNotContain("noted");
        }
    }

    /** More entries than a page lists: each page lists its part, says which, and links the others; every entry is reached. */
    @Test
    void aLongDenyListIsListedPageByPage() {
        Map<String, String> fields = new TreeMap<>();
        for (int i = 0; i < 2 * PER_PAGE + 201; i++) {
            fields.put(String.format("deny.user.paged-%04d", i), "forever paged");
        }
        instances.redis().commands().hset(SYSCONFIG, fields);
        try {
            ConsoleSession console = instances.signedIn(0);

            String first = console.get(CONSOLE + "/deny-list").body();
            assertThat(first).contains("In force: 1,201").contains("Entries 1 to 500 of 1,201")
                    .contains("href=\"/ratelimit-console/deny-list?page=2\"").contains("Page 1 of 3")
                    .doesNotContain("deny-list?page=0");
            assertThat(listed(first)).isEqualTo(PER_PAGE);
            String last = console.get(CONSOLE + "/deny-list?page=3").body();
            assertThat(last).contains("Entries 1,001 to 1,201 of 1,201").contains("paged-1200")
                    .contains("href=\"/ratelimit-console/deny-list?page=2\"").doesNotContain("deny-list?page=4");
            assertThat(listed(last)).isEqualTo(201);
            assertThat(console.get(CONSOLE + "/deny-list?page=99").body()).as("beyond the last: the last")
                    .contains("Entries 1,001 to 1,201 of 1,201");
            for (String bad : new String[] {"0", "-4", "two", ""}) {
                HttpResponse<String> page = console.get(CONSOLE + "/deny-list?page=" + bad);
                assertThat(page.statusCode()).as(bad).isEqualTo(200);
                assertThat(page.body()).as(bad).contains("Entries 1 to 500 of 1,201");
            }
        } finally {
            instances.redis().commands().hdel(SYSCONFIG, fields.keySet().toArray(String[]::new));
        }
    }

    @Test
    void aCraftedMemberIsRefusedAndAnAnonymousPostNeverUnblocks() {
        ConsoleSession console = instances.signedIn(1);
        console.get(CONSOLE + "/blocked");

        HttpResponse<String> crafted = console.post(CONSOLE + "/blocked/unblock", "module", "fixture", "member", "nocolon");

        assertThat(console.follow(crafted).body()).contains("That is not a blocked client.");
        assertThat(console.get(CONSOLE + "/audit").body()).doesNotContain("nocolon");
        HttpResponse<String> anonymous = new ConsoleSession(instances.port(1))
                .post(CONSOLE + "/blocked/unblock", "module", "fixture", "member", MEMBER + "x");
        assertThat(anonymous.statusCode()).isIn(302, 401, 403);
        assertThat(anonymous.headers().firstValue("Location").orElse("")).doesNotContain("unblocked");
    }

    /** The console offers every language the bundle has a file for, and speaks it. */
    @Test
    void thePageInEveryLanguageOfTheBundle() {
        ResourceBundle.Control noFallback = ResourceBundle.Control.getNoFallbackControl(ResourceBundle.Control.FORMAT_PROPERTIES);
        List<String> bundled = Arrays.stream(Locale.getAvailableLocales()).map(Locale::getLanguage).distinct()
                .filter(language -> !language.isEmpty() && ResourceBundle.getBundle("ratelimit/messages",
                        Locale.forLanguageTag(language), noFallback).getLocale().getLanguage().equals(language))
                .toList();
        assertThat(ConsoleLocales.SUPPORTED.stream().map(Locale::getLanguage)).containsAll(bundled);

        ConsoleSession console = instances.signedIn(0);
        for (Locale language : ConsoleLocales.SUPPORTED) {
            String title = ResourceBundle.getBundle("ratelimit/messages", language, noFallback).getString("console.blocked.title");
            assertThat(console.get(CONSOLE + "/blocked?lang=" + language.toLanguageTag()).body()).as(language.toString())
                    .contains(HtmlUtils.htmlEscape(title, "UTF-8"));
        }
        assertThat(console.get(CONSOLE + "/blocked?lang=ja").body()).contains("遮断中のクライアント");
        console.get(CONSOLE + "/blocked?lang=en");
    }

    /** The entries of the test's long list a page of the deny list shows. */
    private static int listed(String page) {
        return occurrences(between(page, "id=\"deny-list\"", "</table>"), "<td class=\"wrap\">paged-");
    }

    private static String between(String text, String from, String to) {
        int start = text.indexOf(from);
        return text.substring(start, text.indexOf(to, start));
    }

    private static int occurrences(String text, String part) {
        return text.split(java.util.regex.Pattern.quote(part), -1).length - 1;
    }
}
