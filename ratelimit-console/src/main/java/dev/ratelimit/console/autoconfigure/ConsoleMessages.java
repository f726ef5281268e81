package dev.ratelimit.console.autoconfigure;

import java.util.Locale;
import org.springframework.context.MessageSource;
import org.springframework.context.MessageSourceResolvable;
import org.springframework.context.NoSuchMessageException;
import org.springframework.context.support.ResourceBundleMessageSource;
import org.thymeleaf.context.ITemplateContext;
import org.thymeleaf.messageresolver.IMessageResolver;
import org.thymeleaf.messageresolver.StandardMessageResolver;

/**
 * The console's texts, kept apart from the app's messages: the app's {@code MessageSource} first, so that an
 * app can reword any label, then the bundle {@code ratelimit/messages} of the i18n module. The app's
 * {@code spring.messages.*}, its message source and Spring Boot's choice of one stay as they are; the
 * console's pages find the bundle's texts through {@link #templateResolver()}, which the app's Thymeleaf
 * engine asks after its own resolvers, for keys the app's messages do not have.
 */
final class ConsoleMessages {

    static final String BUNDLE = "ratelimit/messages";

    private final ResourceBundleMessageSource bundle = new ResourceBundleMessageSource();
    private final MessageSource appFirst;

    /** @param app the app's message source (the application context, which answers nothing when the app has none) */
    ConsoleMessages(MessageSource app) {
        bundle.setBasename(BUNDLE);
        bundle.setDefaultEncoding("UTF-8");
        bundle.setFallbackToSystemLocale(false);
        appFirst = new AppFirst(app, bundle);
    }

    /** What the console's controllers resolve texts with: the app's messages, then the console's bundle. */
    MessageSource source() {
        return appFirst;
    }

    /** Resolves in templates what the app's messages do not: ordered after every resolver the app has. */
    IMessageResolver templateResolver() {
        return new BundleResolver(bundle);
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

    private static final class BundleResolver implements IMessageResolver {

        private final MessageSource bundle;
        private final StandardMessageResolver absent = new StandardMessageResolver();

        BundleResolver(MessageSource bundle) {
            this.bundle = bundle;
        }

        @Override
        public String getName() {
            return "ratelimit-console";
        }

        @Override
        public Integer getOrder() {
            return Integer.MAX_VALUE;
        }

        @Override
        public String resolveMessage(ITemplateContext context, Class<?> origin, String key, Object[] messageParameters) {
            return bundle.getMessage(key, messageParameters, null, context.getLocale());
        }

        @Override
        public String createAbsentMessageRepresentation(ITemplateContext context, Class<?> origin, String key,
                                                        Object[] messageParameters) {
            return absent.createAbsentMessageRepresentation(context, origin, key, messageParameters);
        }
    }
}
