package dev.ratelimit.console.autoconfigure;

import java.util.Locale;
import org.springframework.context.MessageSource;
import org.springframework.context.MessageSourceResolvable;
import org.springframework.context.NoSuchMessageException;
import org.springframework.context.support.ResourceBundleMessageSource;

/**
 * The console's texts, kept apart from the app's messages: the app's {@code MessageSource} first, so that an
 * app can reword any label, then the bundle {@code ratelimit/messages} of the i18n module. The app's
 * {@code spring.messages.*}, its message source and Spring Boot's choice of one stay as they are; the
 * app's Thymeleaf engine reads templates' texts from {@link #source()}, which answers as the app's messages
 * do for every key they have.
 */
final class ConsoleMessages {

    static final String BUNDLE = "ratelimit/messages";

    private final MessageSource appFirst;

    /** @param app the app's message source (the application context, which answers nothing when the app has none) */
    ConsoleMessages(MessageSource app) {
        ResourceBundleMessageSource bundle = new ResourceBundleMessageSource();
        bundle.setBasename(BUNDLE);
        bundle.setDefaultEncoding("UTF-8");
        bundle.setFallbackToSystemLocale(false);
        appFirst = new AppFirst(app, bundle);
    }

    /** What the console's controllers and pages resolve texts with: the app's messages, then the console's bundle. */
    MessageSource source() {
        return appFirst;
    }

    private record AppFirst(MessageSource app, MessageSource bundle) implements MessageSource {

        @Override
        public String getMessage(String code, Object[] args, String defaultMessage, Locale locale) {
            String text = app.getMessage(code, args, null, locale);
            return text != null ? text : bundle.getMessage(code, args, defaultMessage, locale);
        }

        @Override
        public String getMessage(String code, Object[] args, Locale locale) {
            try {
                return app.getMessage(code, args, locale);
            } catch (NoSuchMessageException e) {
                return bundle.getMessage(code, args, locale);
            }
        }

        @Override
        public String getMessage(MessageSourceResolvable resolvable, Locale locale) {
            try {
                return app.getMessage(resolvable, locale);
            } catch (NoSuchMessageException e) {
                return bundle.getMessage(resolvable, locale);
            }
        }
    }
}
