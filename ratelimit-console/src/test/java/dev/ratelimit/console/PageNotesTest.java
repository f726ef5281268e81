package dev.ratelimit.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import dev.ratelimit.console.access.HmacSigner;
import dev.ratelimit.interceptor.testsupport.ManualClock;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;

/**
 * The notes of a form's redirect show only on the console's own redirect, for the operator who posted, for
 * {@link PageNotes#VALID}: a link that adds, changes or drops a note, or that another operator or a later
 * visit follows, shows none.
 */
class PageNotesTest {

    private static final String PAGE = "/ratelimit-console/rule?module=shop&rule=Orders.list";

    private final HmacSigner signer = HmacSigner.of("a secret of the console");
    private final ManualClock clock = new ManualClock(1_700_000_000_000L);

    @Test
    void theConsolesRedirectShowsItsNotesToTheOperatorWhoPosted() {
        String location = redirect("admin", Map.of(PageNotes.REFUSED_ARGUMENT, List.of("a", "b & c"),
                PageNotes.TYPED + "count", List.of("five"), PageNotes.SAVED, List.of("")));

        PageNotes notes = landOn(location, "admin", "");

        assertThat(notes.all(PageNotes.REFUSED_ARGUMENT)).containsExactly("a", "b & c");
        assertThat(notes.typed()).containsExactly(Map.entry("count", "five"));
        assertThat(notes.has(PageNotes.SAVED)).isTrue();
        assertThat(location).as("the page's own parameters kept").startsWith(PAGE + "&");
    }

    @Test
    void aLinkThatAddsChangesOrDropsANoteShowsNone() {
        String location = redirect("admin", Map.of(PageNotes.REFUSED, List.of("ratelimit.config.deny"),
                PageNotes.REFUSED_ARGUMENT, List.of("x")));

        assertThat(landOn(location, "admin", "&" + PageNotes.REFUSED_FIELD + "=Call+us").has(PageNotes.REFUSED))
                .as("a note added").isFalse();
        assertThat(landOn(location.replace("refusedArg=x", "refusedArg=y"), "admin", "").has(PageNotes.REFUSED))
                .as("a note changed").isFalse();
        assertThat(landOn(location.replace("&refusedArg=x", ""), "admin", "").has(PageNotes.REFUSED))
                .as("a note dropped").isFalse();
        assertThat(landOn(PAGE + "&refused=console.error.refused&refusedArg=Call+us", "admin", "").has(PageNotes.REFUSED))
                .as("unsigned").isFalse();
        assertThat(landOn(location.replaceAll("notes=(\\d+)\\.", "notes=9$1."), "admin", "").has(PageNotes.REFUSED))
                .as("its end moved").isFalse();
    }

    @Test
    void anotherOperatorOrALaterVisitSeesNone() {
        String location = redirect("admin", Map.of(PageNotes.UNBLOCKED, List.of("Orders.list:USER:alice")));

        assertThat(landOn(location, "watcher", "").has(PageNotes.UNBLOCKED)).as("another operator").isFalse();
        clock.advance(PageNotes.VALID.toMillis());
        assertThat(landOn(location, "admin", "").first(PageNotes.UNBLOCKED)).as("at its end")
                .isEqualTo("Orders.list:USER:alice");
        clock.advance(1_000);
        assertThat(landOn(location, "admin", "").has(PageNotes.UNBLOCKED)).as("after its end").isFalse();
    }

    @Test
    void onlyNotesAreSignedAndAPageWithoutAnOperatorHasNone() {
        MockHttpServletRequest request = new MockHttpServletRequest();
        PageNotes.attach(request, signer, "admin", clock);

        assertThatIllegalArgumentException().isThrownBy(() -> PageNotes.of(request).redirect(PAGE, "module", "x"));
        assertThat(PageNotes.of(new MockHttpServletRequest("GET", "/ratelimit-console/login")).has(PageNotes.SAVED))
                .isFalse();
    }

    private String redirect(String operator, Map<String, List<String>> notes) {
        MockHttpServletRequest post = new MockHttpServletRequest("POST", "/ratelimit-console/rules/knob");
        PageNotes.attach(post, signer, operator, clock);
        String redirect = PageNotes.of(post).redirect(PAGE, notes);
        assertThat(redirect).startsWith("redirect:");
        return redirect.substring("redirect:".length());
    }

    /** The page a browser of {@code operator} gets at {@code location}, with {@code extra} appended to its query. */
    private PageNotes landOn(String location, String operator, String extra) {
        URI uri = URI.create(location + extra);
        MockHttpServletRequest get = new MockHttpServletRequest("GET", uri.getPath());
        for (String parameter : uri.getRawQuery().split("&")) {
            String[] pair = parameter.split("=", 2);
            get.addParameter(decode(pair[0]), decode(pair.length > 1 ? pair[1] : ""));
        }
        PageNotes.attach(get, signer, operator, clock);
        return PageNotes.of(get);
    }

    private static String decode(String text) {
        return URLDecoder.decode(text, StandardCharsets.UTF_8);
    }
}
