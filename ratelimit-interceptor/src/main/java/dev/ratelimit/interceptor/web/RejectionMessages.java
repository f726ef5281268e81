package dev.ratelimit.interceptor.web;

import dev.ratelimit.interceptor.rule.LimitDefinition;
import java.util.Locale;
import org.jspecify.annotations.Nullable;
import org.springframework.context.MessageSource;
import org.springframework.context.support.ResourceBundleMessageSource;

/**
 * Resolves rejection texts: the app's {@code MessageSource} first, so an app can reword any message,
 * then the bundled {@code ratelimit/messages} of the i18n module, then the default key.
 * Arguments: {@code {0}} the limit's count, {@code {1}} its window in seconds, {@code {2}} the seconds to wait;
 * for {@link #UNAVAILABLE_KEY}, {@code {0}} the seconds to wait.
 */
public class RejectionMessages {

    public static final String BUNDLE = "ratelimit/messages";
    /** The text of a 503 while Redis does not answer in {@code closed} mode. */
    public static final String UNAVAILABLE_KEY = "ratelimit.unavailable";
    /** The text of a 400 for a request heavier than its limit's count: {0} its cost, {1} the count, {2} the window in seconds. */
    public static final String TOO_COSTLY_KEY = "ratelimit.tooCostly";
    /** The text of a refusal of the deny list; no argument. */
    public static final String DENIED_KEY = "ratelimit.denied";
    static final String FALLBACK_TEXT = "Too many requests";

    private final @Nullable MessageSource appMessages;
    private final ResourceBundleMessageSource bundled = new ResourceBundleMessageSource();

    /** @param appMessages the app's message source, or {@code null} */
    public RejectionMessages(@Nullable MessageSource appMessages) {
        this.appMessages = appMessages;
        bundled.setBasename(BUNDLE);
        bundled.setDefaultEncoding("UTF-8");
        bundled.setFallbackToSystemLocale(false);
    }

    public String message(String key, Locale locale, Object... args) {
        String text = lookup(key, locale, args);
        if (text == null && !key.equals(LimitDefinition.DEFAULT_MESSAGE_KEY)) {
            text = lookup(LimitDefinition.DEFAULT_MESSAGE_KEY, locale, args);
        }
        return text != null ? text : FALLBACK_TEXT;
    }

    /** A text without arguments, such as a page's title; {@code fallback} if neither the app nor the bundle has {@code key}. */
    public String text(String key, Locale locale, String fallback) {
        String text = lookup(key, locale, null);
        return text != null ? text : fallback;
    }

    private @Nullable String lookup(String key, Locale locale, Object @Nullable [] args) {
        String text = appMessages == null ? null : appMessages.getMessage(key, args, null, locale);
        return text != null ? text : bundled.getMessage(key, args, null, locale);
    }
}
