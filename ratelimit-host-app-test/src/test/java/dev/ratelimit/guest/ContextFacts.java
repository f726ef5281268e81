package dev.ratelimit.guest;

import dev.ratelimit.hostapp.BookView;
import dev.ratelimit.hostapp.BookshopApplication;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Proxy;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.catalina.webresources.TomcatURLStreamHandlerFactory;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.condition.ConditionEvaluationReport;
import org.springframework.cache.CacheManager;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.MessageSource;
import org.springframework.util.ClassUtils;
import tools.jackson.databind.json.JsonMapper;

/**
 * What the app is made of, by Spring Boot, once started: the beans of the kinds Spring Boot configures for it, the
 * auto-configurations that matched, how its messages and its JSON read. Loaded and run in a class loader of its own
 * (see {@link AppUnchangedByUsTest}), so it is public and answers in JDK types only.
 */
public final class ContextFacts {

    /** The kinds of bean of which the app has one, or one set, that Spring Boot chose: ours count here too. */
    private static final List<String> SOLE_KINDS = List.of(
            "org.springframework.cache.CacheManager",
            "org.springframework.web.servlet.LocaleResolver",
            "org.springframework.context.MessageSource",
            "org.springframework.boot.webmvc.error.ErrorController",
            "org.springframework.boot.webmvc.error.ErrorAttributes",
            "tools.jackson.databind.ObjectMapper",
            "com.fasterxml.jackson.databind.ObjectMapper",
            "org.springframework.data.redis.connection.RedisConnectionFactory",
            "org.springframework.data.redis.core.RedisOperations",
            "javax.sql.DataSource",
            "jakarta.persistence.EntityManagerFactory",
            "org.springframework.transaction.TransactionManager",
            "org.springframework.security.web.SecurityFilterChain",
            "java.util.concurrent.Executor",
            "org.springframework.scheduling.TaskScheduler",
            "io.micrometer.core.instrument.MeterRegistry");

    /** The kinds of which an app has many, and we may add our own: Spring Boot's must be the same. */
    private static final List<String> SHARED_KINDS = List.of(
            "org.springframework.boot.webmvc.autoconfigure.error.ErrorViewResolver",
            "org.springframework.web.servlet.ViewResolver",
            "org.springframework.web.servlet.HandlerExceptionResolver",
            "org.thymeleaf.templateresolver.ITemplateResolver",
            "org.springframework.http.converter.HttpMessageConverter",
            "org.springframework.boot.health.contributor.HealthContributor",
            "org.springframework.boot.health.contributor.ReactiveHealthContributor");

    private ContextFacts() {
    }

    /**
     * Starts the app with {@code args}, reads it and closes it. Spring Boot makes its choices as the app starts,
     * however lazily it starts and whether it serves: the caller may start it lazily and without its web server.
     */
    public static Map<String, String> of(String[] args) throws IOException {
        // Tomcat would install its URL handlers JVM-wide, which only one class loader may do.
        TomcatURLStreamHandlerFactory.disable();
        try (ConfigurableApplicationContext app = SpringApplication.run(BookshopApplication.class, args)) {
            Map<String, String> facts = new TreeMap<>();
            for (String kind : SOLE_KINDS) {
                facts.put("beans of " + kind, beans(app, kind, true));
            }
            for (String kind : SHARED_KINDS) {
                facts.put("Spring Boot's beans of " + kind, beans(app, kind, false));
            }
            ConditionEvaluationReport report = ConditionEvaluationReport.get(app.getBeanFactory());
            report.getConditionAndOutcomesBySource().forEach((source, outcomes) -> {
                if (outcomes.isFullMatch() && !ours(source)) {
                    facts.put("matched " + source, "yes");
                }
            });
            report.getUnconditionalClasses().stream().filter(source -> !ours(source))
                    .forEach(source -> facts.put("unconditional " + source, "yes"));
            messages(app.getBean(MessageSource.class), facts);
            facts.put("a book as JSON", app.getBean(JsonMapper.class).writeValueAsString(new BookView("9780199536559",
                    "Walden", null, "Henry David Thoreau", LocalDate.of(1854, 8, 9), new BigDecimal("7.25"))));
            facts.put("cache names", app.getBean(CacheManager.class).getCacheNames().toString());
            return facts;
        }
    }

    /** Ours: the modules under test, not the app (which lives in a package of the same name, for this build). */
    static boolean ours(String className) {
        return className.startsWith("dev.ratelimit.") && !className.startsWith("dev.ratelimit.hostapp.");
    }

    /** The beans of {@code kind} by name, with their types as defined: none is created for it (the app runs lazily). */
    private static String beans(ConfigurableApplicationContext app, String kind, boolean withOurs) {
        ClassLoader loader = app.getClassLoader();
        if (!ClassUtils.isPresent(kind, loader)) {
            return "{}";
        }
        ConfigurableListableBeanFactory factory = app.getBeanFactory();
        Map<String, String> beans = new TreeMap<>();
        for (String name : factory.getBeanNamesForType(ClassUtils.resolveClassName(kind, loader), true, false)) {
            Class<?> type = factory.getType(name, false);
            // A JDK proxy's class is named by the order proxies were made in: the same bean has another name in each app.
            String typeName = type == null ? "unknown" : Proxy.isProxyClass(type) ? "a JDK proxy"
                    : ClassUtils.getUserClass(type).getName();
            if (withOurs || !ours(typeName)) {
                beans.put(name, typeName);
            }
        }
        return beans.toString();
    }

    /** Each of the app's messages, in each of its languages. */
    private static void messages(MessageSource messages, Map<String, String> facts) throws IOException {
        Properties keys = new Properties();
        try (InputStream in = BookshopApplication.class.getResourceAsStream("/messages.properties")) {
            keys.load(in);
        }
        for (String language : List.of("en", "de", "fr", "es")) {
            for (String key : keys.stringPropertyNames()) {
                facts.put("message " + key + " in " + language,
                        messages.getMessage(key, new Object[] {"{0}"}, Locale.forLanguageTag(language)));
            }
        }
    }
}
