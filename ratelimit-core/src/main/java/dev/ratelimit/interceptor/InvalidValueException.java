package dev.ratelimit.interceptor;

import java.text.MessageFormat;
import java.util.Arrays;
import java.util.Locale;
import java.util.ResourceBundle;
import org.jspecify.annotations.Nullable;
import org.springframework.context.MessageSource;

/**
 * A value the limiter refuses (a count, a window, a switch, a pattern, an address...), from an
 * annotation, the config hash, the editor or the console. It names its reason by a message key of
 * the {@code ratelimit/messages} bundle, so that a tool can show it in the operator's language; its
 * message is the English text. One catalog serves the log, the exception and the console.
 */
public class InvalidValueException extends IllegalArgumentException {

    private static final String BUNDLE = "ratelimit/messages";

    private final @Nullable String field;
    private final String key;
    private final String[] arguments;

    /** @param arguments shown as they are: numbers are not formatted for a locale */
    public InvalidValueException(String key, @Nullable Object... arguments) {
        this(null, key, Arrays.stream(arguments).map(String::valueOf).toArray(String[]::new), null);
    }

    private InvalidValueException(@Nullable String field, String key, String[] arguments,
                                  @Nullable Throwable cause) {
        super(english(field, key, arguments), cause);
        this.field = field;
        this.key = key;
        this.arguments = arguments;
    }

    /** This reason, about {@code field} (shown before it, e.g. {@code shop.A.b.count: ...}). */
    public InvalidValueException about(String field) {
        return new InvalidValueException(field, key, arguments, this);
    }

    /** What was refused, or {@code null}. */
    public @Nullable String field() {
        return field;
    }

    public String key() {
        return key;
    }

    public Object[] arguments() {
        return arguments.clone();
    }

    /**
     * The message in {@code locale}, from {@code messages} (which an app may reword), else English. The
     * pattern is always formatted, also without arguments, so that its quoting reads the same everywhere.
     */
    public String message(MessageSource messages, Locale locale) {
        String pattern = messages.getMessage(key, null, null, locale);
        String text = pattern == null ? english(null, key, arguments)
                : new MessageFormat(pattern, locale).format(arguments);
        return field == null ? text : field + ": " + text;
    }

    private static String english(@Nullable String field, String key, String[] arguments) {
        String pattern = ResourceBundle.getBundle(BUNDLE, Locale.ROOT).getString(key);
        String text = new MessageFormat(pattern, Locale.ROOT).format(arguments);
        return field == null ? text : field + ": " + text;
    }
}
