package dev.ratelimit.interceptor.web;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.util.List;
import java.util.Locale;
import java.util.TimeZone;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.springframework.context.i18n.LocaleContext;
import org.springframework.context.i18n.SimpleTimeZoneAwareLocaleContext;
import org.springframework.context.i18n.TimeZoneAwareLocaleContext;
import org.springframework.util.function.SingletonSupplier;
import org.springframework.web.servlet.DispatcherServlet;
import org.springframework.web.servlet.HandlerExecutionChain;
import org.springframework.web.servlet.HandlerMapping;
import org.springframework.web.servlet.LocaleContextResolver;
import org.springframework.web.servlet.LocaleResolver;
import org.springframework.web.servlet.i18n.LocaleChangeInterceptor;
import org.springframework.web.servlet.support.RequestContextUtils;

/**
 * The language of a refusal: the request's locale as the app resolves it once its own interceptors have
 * run. The limiter decides before every other interceptor, so the app's {@link LocaleChangeInterceptor}
 * has not seen a refused request; its parameter ({@code ?lang=de}) is applied here by that interceptor
 * itself, found in the app's handler mapping for the request, to the app's {@link LocaleResolver}, which
 * then resolves as it would next: the session's or cookie's locale, else {@code Accept-Language}. What the
 * interceptor sets is kept for this response only: a refused request changes no session and sets no cookie.
 */
final class RefusalLocale {

    private final Supplier<List<HandlerMapping>> mappings;

    /** @param mappings the app's handler mappings in the order its {@code DispatcherServlet} asks them */
    RefusalLocale(Supplier<List<HandlerMapping>> mappings) {
        this.mappings = SingletonSupplier.of(mappings);
    }

    /**
     * The request as a refusal answers it: {@link RequestContextUtils#getLocale} of the returned request
     * gives the locale the app's interceptors would have chosen. Outside a {@code DispatcherServlet} the
     * request itself.
     */
    HttpServletRequest localized(HttpServletRequest request, HttpServletResponse response) {
        LocaleResolver app = RequestContextUtils.getLocaleResolver(request);
        if (app == null) {
            return request;
        }
        UnstoredLocale resolver = new UnstoredLocale(app);
        HttpServletRequest localized = new HttpServletRequestWrapper(request) {
            @Override
            public Object getAttribute(String name) {
                return DispatcherServlet.LOCALE_RESOLVER_ATTRIBUTE.equals(name) ? resolver : super.getAttribute(name);
            }
        };
        HandlerExecutionChain chain = chain(request);
        if (chain != null) {
            for (Object interceptor : chain.getInterceptorList()) {
                if (interceptor instanceof LocaleChangeInterceptor localeChange) {
                    apply(localeChange, localized, response, chain.getHandler());
                }
            }
        }
        return localized;
    }

    /** The app's interceptors for the request, as its {@code DispatcherServlet} found them; {@code null} if none answers. */
    private @Nullable HandlerExecutionChain chain(HttpServletRequest request) {
        for (HandlerMapping mapping : mappings.get()) {
            try {
                HandlerExecutionChain chain = mapping.getHandler(request);
                if (chain != null) {
                    return chain;
                }
            } catch (Exception e) {
                // The mapping refuses the request (a method it does not allow, say): not the one that matched it.
            }
        }
        return null;
    }

    private static void apply(LocaleChangeInterceptor interceptor, HttpServletRequest request,
                              HttpServletResponse response, Object handler) {
        try {
            interceptor.preHandle(request, response, handler);
        } catch (Exception e) {
            // An invalid ?lang= the app does not ignore would fail the app's own request: the locale stays as resolved.
        }
    }

    /**
     * The app's resolver, but a locale set through it holds for this response only: what the app's
     * interceptor sets is not written to the session or a cookie.
     */
    private static final class UnstoredLocale implements LocaleContextResolver {

        private final LocaleResolver app;
        private @Nullable Locale set;

        UnstoredLocale(LocaleResolver app) {
            this.app = app;
        }

        @Override
        public Locale resolveLocale(HttpServletRequest request) {
            return set != null ? set : app.resolveLocale(request);
        }

        @Override
        public LocaleContext resolveLocaleContext(HttpServletRequest request) {
            TimeZone zone = app instanceof LocaleContextResolver zoned
                    && zoned.resolveLocaleContext(request) instanceof TimeZoneAwareLocaleContext aware ? aware.getTimeZone() : null;
            return new SimpleTimeZoneAwareLocaleContext(resolveLocale(request), zone);
        }

        @Override
        public void setLocale(HttpServletRequest request, @Nullable HttpServletResponse response, @Nullable Locale locale) {
            set = locale;
        }

        @Override
        public void setLocaleContext(HttpServletRequest request, @Nullable HttpServletResponse response,
                                     @Nullable LocaleContext context) {
            set = context == null ? null : context.getLocale();
        }
    }
}
