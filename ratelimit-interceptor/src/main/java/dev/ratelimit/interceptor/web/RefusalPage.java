package dev.ratelimit.interceptor.web;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.boot.webmvc.autoconfigure.error.ErrorViewResolver;
import org.springframework.http.HttpStatus;
import org.springframework.util.ClassUtils;
import org.springframework.util.function.SingletonSupplier;
import org.springframework.web.servlet.ModelAndView;
import org.springframework.web.servlet.View;
import org.springframework.web.servlet.ViewResolver;
import org.springframework.web.servlet.support.RequestContextUtils;
import org.springframework.web.util.HtmlUtils;

/**
 * The page a person gets for a refusal, in the request's language. The app's own error page for the
 * status where it has one, as Spring Boot's error handling finds it (its {@link ErrorViewResolver}s:
 * {@code templates/error/429.html}, {@code error/4xx.html}, a static {@code error/429.html}), rendered by
 * the app's view resolvers with Boot's error attributes ({@code timestamp}, {@code status}, {@code error},
 * {@code path}), {@code message} (the refusal's text) and {@code retryAfter} (seconds, when waiting helps);
 * else a minimal page of the limiter's own with a title and the text.
 */
final class RefusalPage {

    private static final Logger log = LoggerFactory.getLogger(RefusalPage.class);
    private static final String BOOT_ERROR_VIEWS = "org.springframework.boot.webmvc.autoconfigure.error.ErrorViewResolver";

    /**
     * What a page says.
     *
     * @param status            the status it is answered with
     * @param meaning           the status whose error page it is (a 429 answered 200 in the legacy contract)
     * @param titleKey          the message key of its title
     * @param message           the refusal's text in the request's language
     * @param retryAfterSeconds the wait, also sent as {@code Retry-After}; 0 when waiting does not help
     */
    record Content(int status, HttpStatus meaning, String titleKey, String message, long retryAfterSeconds) {
    }

    private final RejectionMessages messages;
    private final ErrorViews errorViews;
    private final Supplier<List<ViewResolver>> viewResolvers;
    private final AtomicBoolean reportedFailure = new AtomicBoolean();

    /** @param app the app's beans: its view resolvers and Spring Boot error views, asked at the first refusal */
    RefusalPage(RejectionMessages messages, ListableBeanFactory app) {
        this.messages = messages;
        this.errorViews = ClassUtils.isPresent(BOOT_ERROR_VIEWS, RefusalPage.class.getClassLoader())
                ? BootErrorViews.of(app) : (request, status, model) -> null;
        this.viewResolvers = SingletonSupplier.of(() -> app.getBeanProvider(ViewResolver.class).orderedStream().toList());
    }

    void render(HttpServletRequest request, HttpServletResponse response, Content content) throws IOException {
        response.setStatus(content.status());
        if (content.retryAfterSeconds() > 0) {
            response.setHeader("Retry-After", Long.toString(content.retryAfterSeconds()));
        }
        response.setHeader("Cache-Control", "no-store");
        Locale locale = RequestContextUtils.getLocale(request);
        response.setLocale(locale);
        if (!renderAppPage(request, response, content, locale)) {
            response.setContentType("text/html");
            response.setCharacterEncoding(StandardCharsets.UTF_8.name());
            response.getWriter().write(ownPage(content, locale));
        }
    }

    /** @return whether the app's page answered */
    private boolean renderAppPage(HttpServletRequest request, HttpServletResponse response, Content content,
                                  Locale locale) {
        ModelAndView page = errorViews.resolve(request, content.meaning(), model(request, content));
        if (page == null) {
            return false;
        }
        View view = page.isReference()
                ? view(Objects.requireNonNull(page.getViewName(), "a reference is a view name"), locale) : page.getView();
        if (view == null) {
            return false;
        }
        try {
            view.render(page.getModelMap(), request, response);
            return true;
        } catch (Exception e) {
            if (reportedFailure.compareAndSet(false, true)) {
                log.warn("Rate limiter: the app's error page {} failed for a refusal ({}); the limiter's own page answers, "
                        + "further failures are logged at debug level", page.getViewName(), e.toString());
            } else {
                log.debug("Rate limiter: the app's error page {} failed for a refusal", page.getViewName(), e);
            }
            if (response.isCommitted()) {
                return true;
            }
            response.resetBuffer();
            return false;
        }
    }

    private @Nullable View view(String name, Locale locale) {
        for (ViewResolver resolver : viewResolvers.get()) {
            try {
                View view = resolver.resolveViewName(name, locale);
                if (view != null) {
                    return view;
                }
            } catch (Exception e) {
                log.debug("Rate limiter: view resolver {} failed for {}", resolver, name, e);
            }
        }
        return null;
    }

    private static Map<String, Object> model(HttpServletRequest request, Content content) {
        Map<String, Object> model = new LinkedHashMap<>();
        model.put("timestamp", new Date());
        model.put("status", content.meaning().value());
        model.put("error", content.meaning().getReasonPhrase());
        model.put("path", request.getRequestURI());
        model.put("message", content.message());
        if (content.retryAfterSeconds() > 0) {
            model.put("retryAfter", content.retryAfterSeconds());
        }
        return model;
    }

    private String ownPage(Content content, Locale locale) {
        String title = escape(messages.text(content.titleKey(), locale, content.meaning().getReasonPhrase()));
        return "<!DOCTYPE html>\n<html lang=\"" + escape(locale.toLanguageTag()) + "\">\n<head>\n<meta charset=\"utf-8\">\n"
                + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>" + title + "</title>\n"
                + "</head>\n<body>\n<h1>" + title + "</h1>\n<p>" + escape(content.message()) + "</p>\n</body>\n</html>\n";
    }

    private static String escape(String text) {
        return HtmlUtils.htmlEscape(text, StandardCharsets.UTF_8.name());
    }

    /** The app's Spring Boot error views for a status; none without Spring Boot's web MVC support. */
    @FunctionalInterface
    private interface ErrorViews {
        @Nullable ModelAndView resolve(HttpServletRequest request, HttpStatus status, Map<String, Object> model);
    }

    /** Loaded only when Spring Boot's web MVC support is on the class path. */
    private static final class BootErrorViews {

        static ErrorViews of(ListableBeanFactory app) {
            Supplier<List<ErrorViewResolver>> resolvers = SingletonSupplier.of(
                    () -> app.getBeanProvider(ErrorViewResolver.class).orderedStream().toList());
            return (request, status, model) -> {
                for (ErrorViewResolver resolver : resolvers.get()) {
                    ModelAndView page = resolver.resolveErrorView(request, status, model);
                    if (page != null) {
                        return page;
                    }
                }
                return null;
            };
        }
    }
}
