package dev.ratelimit.interceptor.pages;

import dev.ratelimit.interceptor.fixture.FixtureApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.web.servlet.LocaleResolver;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;
import org.springframework.web.servlet.i18n.LocaleChangeInterceptor;
import org.springframework.web.servlet.i18n.SessionLocaleResolver;

/**
 * A shop with pages for people, written as such apps are: Thymeleaf pages in several languages, the
 * language chosen by {@code ?lang=} (its own {@link LocaleChangeInterceptor}, kept in the session) or the
 * browser's, and error pages of its own: {@code error/429.html}, and an {@code error/400.html} that fails.
 */
@SpringBootApplication
public class PagesApplication implements WebMvcConfigurer {

    public static ConfigurableApplicationContext start(int redisPort, String... properties) {
        String[] all = new String[properties.length + 3];
        all[0] = "ratelimit.module=shop";
        all[1] = "spring.thymeleaf.prefix=classpath:/templates/pages-app/";
        all[2] = "spring.messages.basename=pages-app/messages";
        System.arraycopy(properties, 0, all, 3, properties.length);
        return FixtureApplication.start(PagesApplication.class, redisPort, all);
    }

    @Bean
    LocaleResolver localeResolver() {
        return new SessionLocaleResolver();
    }

    @Bean
    LocaleChangeInterceptor localeChangeInterceptor() {
        LocaleChangeInterceptor interceptor = new LocaleChangeInterceptor();
        interceptor.setParamName("lang");
        return interceptor;
    }

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        registry.addInterceptor(localeChangeInterceptor());
    }
}
