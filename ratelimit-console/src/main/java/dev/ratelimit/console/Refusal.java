package dev.ratelimit.console;

import dev.ratelimit.interceptor.InvalidValueException;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;
import org.springframework.context.MessageSource;
import org.springframework.web.servlet.support.RequestContextUtils;

/**
 * A refused form, carried through post/redirect/get: the form answers with a redirect to its page,
 * which shows the reason in the operator's language and the values they typed, so a refresh never
 * posts again. The reason travels as a message key with its arguments, never as text, and as
 * {@link PageNotes} signed for the operator, so a link cannot make the console say anything, nor fill in
 * a form.
 */
public final class Refusal {

    private static final String GENERIC_KEY = "console.error.refused";

    private Refusal() {
    }

    /** {@code redirect:} to {@code page} with the reason and what was typed. */
    public static String redirect(HttpServletRequest request, String page, IllegalArgumentException refused,
                                  Map<String, String> typed) {
        Map<String, List<String>> notes = new LinkedHashMap<>();
        if (refused instanceof InvalidValueException invalid) {
            notes.put(PageNotes.REFUSED, List.of(invalid.key()));
            if (invalid.field() != null) {
                notes.put(PageNotes.REFUSED_FIELD, List.of(invalid.field()));
            }
            notes.put(PageNotes.REFUSED_ARGUMENT, Arrays.stream(invalid.arguments())
                    .filter(Objects::nonNull).map(String::valueOf).toList());
        } else {
            notes.put(PageNotes.REFUSED, List.of(GENERIC_KEY));
            notes.put(PageNotes.REFUSED_ARGUMENT, Stream.ofNullable(refused.getMessage()).toList());
        }
        typed.forEach((name, value) -> notes.put(PageNotes.TYPED + name, List.of(value)));
        return PageNotes.of(request).redirect(page, notes);
    }

    /** The reason a form of this page was refused, in the request's language, or {@code null}. */
    public static String message(HttpServletRequest request, MessageSource messages) {
        PageNotes notes = PageNotes.of(request);
        String key = notes.first(PageNotes.REFUSED);
        if (key == null || !(key.startsWith("ratelimit.config.") || key.equals(GENERIC_KEY))) {
            return null;
        }
        InvalidValueException refused = new InvalidValueException(key, notes.all(PageNotes.REFUSED_ARGUMENT).toArray());
        String field = notes.first(PageNotes.REFUSED_FIELD);
        return (field == null ? refused : refused.about(field)).message(messages, RequestContextUtils.getLocale(request));
    }

    /** A refusal described on the spot, in the request's language. */
    public static String describe(IllegalArgumentException refused, MessageSource messages, HttpServletRequest request) {
        return refused instanceof InvalidValueException invalid
                ? invalid.message(messages, RequestContextUtils.getLocale(request)) : refused.getMessage();
    }

    /** The values typed into the refused form, by name. */
    public static Map<String, String> typed(HttpServletRequest request) {
        return PageNotes.of(request).typed();
    }
}
