package dev.ratelimit.hostapp;

import java.time.Duration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.LocaleResolver;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;
import org.springframework.web.servlet.i18n.CookieLocaleResolver;
import org.springframework.web.servlet.i18n.LocaleChangeInterceptor;

/**
 * The visitor's language: the browser's (Accept-Language) until they pick one with {@code ?lang=}, which a cookie
 * then keeps for a year.
 */
@Configuration(proxyBeanMethods = false)
class WebConfig implements WebMvcConfigurer {

    static final String LANGUAGE_COOKIE = "bookshop-lang";

    @Bean
    LocaleResolver localeResolver() {
        CookieLocaleResolver resolver = new CookieLocaleResolver(LANGUAGE_COOKIE);
        resolver.setCookieMaxAge(Duration.ofDays(365));
        return resolver;
    }

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        LocaleChangeInterceptor languages = new LocaleChangeInterceptor();
        languages.setParamName("lang");
        languages.setIgnoreInvalidLocale(true);
        registry.addInterceptor(languages);
    }
}
