package dev.ratelimit.console;

import dev.ratelimit.interceptor.InvalidValueException;
import jakarta.servlet.http.HttpServletRequest;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.context.MessageSource;
import org.springframework.web.servlet.support.RequestContextUtils;

/**
 * A refused form, carried through post/redirect/get: the form answers with a redirect to its page,
 * which shows the reason in the operator's language and the values they typed, so a refresh never
 * posts again. The reason travels as a message key with its arguments, never as text, so a link cannot
 * make the console say anything but its own messages.
 */
public final class Refusal {

    static final String KEY = "refused";
    static final String FIELD = "refusedField";
    static final String ARGUMENT = "refusedArg";
    /** Typed values come back as {@code typed.<name>}. */
    static final String TYPED = "typed.";
    private static final String GENERIC_KEY = "console.error.refused";

    private Refusal() {
    }

    /** {@code redirect:} to {@code page} with the reason and what was typed. */
    public static String redirect(String page, IllegalArgumentException refused, Map<String, String> typed) {
        QueryString query = QueryString.of();
        if (refused instanceof InvalidValueException invalid) {
            query.add(KEY, invalid.key()).add(FIELD, invalid.field());
            for (Object argument : invalid.arguments()) {
                query.add(ARGUMENT, argument);
            }
        } else {
            query.add(KEY, GENERIC_KEY).add(ARGUMENT, refused.getMessage());
        }
        typed.forEach((name, value) -> query.add(TYPED + name, value));
        return "redirect:" + query.appendTo(page);
    }

    /** The reason a form of this page was refused, in the request's language, or {@code null}. */
    public static String message(HttpServletRequest request, MessageSource messages) {
        String key = request.getParameter(KEY);
        if (key == null || !(key.startsWith("ratelimit.config.") || key.equals(GENERIC_KEY))) {
            return null;
        }
        String[] arguments = request.getParameterValues(ARGUMENT);
        InvalidValueException refused = new InvalidValueException(key, (Object[]) (arguments == null ? new String[0] : arguments));
        String field = request.getParameter(FIELD);
        return (field == null ? refused : refused.about(field)).message(messages, RequestContextUtils.getLocale(request));
    }

    /** A refusal described on the spot, in the request's language. */
    public static String describe(IllegalArgumentException refused, MessageSource messages, HttpServletRequest request) {
        return refused instanceof InvalidValueException invalid
                ? invalid.message(messages, RequestContextUtils.getLocale(request)) : refused.getMessage();
    }

    /** The values typed into the refused form, by name. */
    public static Map<String, String> typed(HttpServletRequest request) {
        Map<String, String> typed = new LinkedHashMap<>();
        for (String name : List.copyOf(request.getParameterMap().keySet())) {
            if (name.startsWith(TYPED)) {
                typed.put(name.substring(TYPED.length()), request.getParameter(name));
            }
        }
        return typed;
    }
}
