package dev.ratelimit.console.autoconfigure;

import dev.ratelimit.apiindex.ApiIndexRepository;
import dev.ratelimit.console.ConsoleErrorPages;
import dev.ratelimit.console.ConsoleModel;
import dev.ratelimit.console.DatabaseDidNotAnswer;
import dev.ratelimit.console.ConsoleProperties;
import dev.ratelimit.console.access.ConsoleAccessPolicy;
import dev.ratelimit.console.access.ConsoleFilter;
import dev.ratelimit.console.access.HmacSigner;
import dev.ratelimit.console.access.LoginController;
import dev.ratelimit.console.access.PasswordLogin;
import dev.ratelimit.console.audit.AuditController;
import dev.ratelimit.console.audit.AuditTrail;
import dev.ratelimit.console.audit.AuditedEditor;
import dev.ratelimit.console.audit.LoggedAuditTrail;
import dev.ratelimit.console.audit.MissingLogDatabase;
import dev.ratelimit.console.audit.ViewOnlyGuard;
import dev.ratelimit.console.blocked.BlockedController;
import dev.ratelimit.console.denylist.DenyListController;
import dev.ratelimit.console.dynamic.DynamicRulesController;
import dev.ratelimit.console.live.LiveController;
import dev.ratelimit.console.rules.RuleAdviceController;
import dev.ratelimit.interceptor.advice.LimitAdvisor;
import dev.ratelimit.console.live.LiveTraffic;
import dev.ratelimit.console.logs.LogClock;
import dev.ratelimit.console.logs.LogsController;
import dev.ratelimit.console.logs.OverviewController;
import dev.ratelimit.console.rules.ConsoleRules;
import dev.ratelimit.console.rules.RuleFormsController;
import dev.ratelimit.console.rules.RulePageController;
import dev.ratelimit.console.rules.RulesController;
import dev.ratelimit.console.rules.RulesDocumentController;
import dev.ratelimit.interceptor.blocked.BlockedClients;
import dev.ratelimit.interceptor.config.EvictionPolicy;
import dev.ratelimit.interceptor.config.SysConfigEditor;
import dev.ratelimit.interceptor.config.SysConfigRepository;
import dev.ratelimit.interceptor.identity.TrustedProxyResolver;
import dev.ratelimit.interceptor.internal.instance.InstanceDirectory;
import dev.ratelimit.interceptor.autoconfigure.InterceptionLogProperties;
import dev.ratelimit.interceptor.log.LogTimeZone;
import dev.ratelimit.interceptor.internal.log.database.LogDatabase;
import dev.ratelimit.console.report.LogReports;
import dev.ratelimit.interceptor.stats.TrafficStatistics;
import java.time.Clock;
import java.util.List;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.context.ApplicationContext;
import org.thymeleaf.spring6.SpringTemplateEngine;
import org.springframework.boot.webmvc.autoconfigure.error.ErrorViewResolver;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.web.servlet.config.annotation.ResourceHandlerRegistry;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/** Serves the operations console at {@code ratelimit.console.path} in any servlet app that has the module. */
@AutoConfiguration(afterName = {"dev.ratelimit.interceptor.autoconfigure.RateLimitAutoConfiguration",
        "dev.ratelimit.interceptor.autoconfigure.RateLimitStatsAutoConfiguration",
        "dev.ratelimit.apiindex.autoconfigure.ApiIndexAutoConfiguration"})
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnProperty(prefix = "ratelimit.console", name = "enabled", matchIfMissing = true)
@ConditionalOnBean({SysConfigEditor.class, ApiIndexRepository.class})
@EnableConfigurationProperties(ConsoleProperties.class)
public class ConsoleAutoConfiguration {

    static final String ECHARTS_DIST = "classpath:/META-INF/resources/webjars/echarts/5.3.1/dist/";

    @Bean
    ConsoleMessages ratelimitConsoleMessages(ApplicationContext app) {
        return new ConsoleMessages(app);
    }

    /**
     * The console's pages read their texts as its controllers do: the app's messages, then the console's bundle,
     * through the app's Thymeleaf engine's own message resolver (its message source for templates); static, so
     * that the template engine it reaches is not made early.
     */
    @Bean
    static BeanPostProcessor ratelimitConsoleTemplateMessages(ObjectProvider<ConsoleMessages> messages) {
        return new BeanPostProcessor() {
            @Override
            public Object postProcessAfterInitialization(Object bean, String beanName) {
                if (bean instanceof SpringTemplateEngine engine) {
                    engine.setTemplateEngineMessageSource(messages.getObject().source());
                }
                return bean;
            }
        };
    }

    @Bean
    @ConditionalOnMissingBean
    AuditTrail ratelimitConsoleAuditTrail() {
        return new LoggedAuditTrail();
    }

    @Bean
    LogClock ratelimitConsoleLogClock(ObjectProvider<LogTimeZone> zone) {
        LogTimeZone log = zone.getIfAvailable();
        return new LogClock(log == null ? Clock.systemDefaultZone() : Clock.system(log.zone()));
    }

    @Bean
    AuditedEditor ratelimitConsoleEditor(SysConfigEditor editor, AuditTrail trail, ConsoleRules rules) {
        return new AuditedEditor(editor, trail, rules::now, Clock.systemUTC());
    }

    /*
     * The pages are beans declared here, each only when missing: an app whose own component scan
     * reaches dev.ratelimit.console (they are @Controllers) must not get every page twice.
     */

    @Bean
    @ConditionalOnMissingBean
    ConsoleModel ratelimitConsoleModel(ConsoleProperties properties) {
        return new ConsoleModel(properties);
    }

    /**
     * The interception log's reports, where the app has the log's database. They are the console's: an app
     * without the console writes its log but never loads the report queries.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.apache.ibatis.session.SqlSession")
    @ConditionalOnBean(LogDatabase.class)
    @EnableConfigurationProperties(InterceptionLogProperties.class)
    static class LogReading {

        @Bean
        @ConditionalOnMissingBean
        LogReports rateLimitLogReports(LogDatabase database, InterceptionLogProperties properties) {
            InterceptionLogProperties.Report report = properties.report();
            return new LogReports(database, report.maxPageSize(), report.maxTop(), report.maxDays());
        }
    }

    /** Only where the interception log can be: its queries' timeouts are Spring's data access exceptions. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.dao.QueryTimeoutException")
    static class DatabaseTimeouts {

        @Bean
        @ConditionalOnMissingBean
        DatabaseDidNotAnswer ratelimitConsoleDatabaseTimeouts(ConsoleModel model) {
            return new DatabaseDidNotAnswer(model);
        }
    }

    @Bean
    @ConditionalOnMissingBean
    OverviewController ratelimitConsoleOverview(ObjectProvider<LogReports> reports, LogClock clock,
                                                ObjectProvider<LiveTraffic> live, ObjectProvider<EvictionPolicy> eviction) {
        return new OverviewController(reports, clock, live, eviction);
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBean({TrafficStatistics.class, InstanceDirectory.class})
    LiveTraffic ratelimitConsoleLiveTraffic(TrafficStatistics statistics, InstanceDirectory instances,
                                            ApiIndexRepository index) {
        return new LiveTraffic(statistics, instances, index, Clock.systemUTC());
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBean({TrafficStatistics.class, InstanceDirectory.class})
    LiveController ratelimitConsoleLive(LiveTraffic traffic) {
        return new LiveController(traffic);
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBean(BlockedClients.class)
    BlockedController ratelimitConsoleBlocked(BlockedClients blocked, ApiIndexRepository index, AuditedEditor editor,
                                              LogClock clock, ConsoleProperties properties) {
        return new BlockedController(blocked, index, editor, clock, properties);
    }

    /** What every page of rules reads: the API index under the config hash, as the limiter applies them. */
    @Bean
    @ConditionalOnMissingBean
    ConsoleRules ratelimitConsoleRuleCatalog(ApiIndexRepository index, SysConfigRepository config) {
        return new ConsoleRules(index, config);
    }

    @Bean
    @ConditionalOnMissingBean
    RulesController ratelimitConsoleRules(ConsoleRules rules, AuditedEditor editor, AuditTrail trail, LogClock clock,
                                          ConsoleMessages messages, ConsoleProperties properties) {
        return new RulesController(rules, editor, trail, clock, messages.source(), properties);
    }

    @Bean
    @ConditionalOnMissingBean
    RulePageController ratelimitConsoleRulePage(ConsoleRules rules, AuditTrail trail, LogClock clock,
                                                ObjectProvider<LiveTraffic> live, ObjectProvider<BlockedClients> blocked,
                                                ObjectProvider<LogReports> reports, ConsoleMessages messages,
                                                ObjectProvider<LimitAdvisor> advisor) {
        return new RulePageController(rules, trail, clock, live, blocked, reports, messages.source(), advisor);
    }

    @Bean
    @ConditionalOnMissingBean
    RuleAdviceController ratelimitConsoleRuleAdvice(ObjectProvider<LimitAdvisor> advisor) {
        return new RuleAdviceController(advisor);
    }

    @Bean
    @ConditionalOnMissingBean
    RulesDocumentController ratelimitConsoleRulesDocument(ConsoleRules rules, AuditedEditor editor, LogClock clock,
                                                          ConsoleMessages messages, ConsoleProperties properties) {
        return new RulesDocumentController(rules, editor, clock, messages.source(), properties);
    }

    @Bean
    @ConditionalOnMissingBean
    RuleFormsController ratelimitConsoleRuleForms(AuditedEditor editor, LogClock clock,
                                                  ConsoleProperties properties) {
        return new RuleFormsController(editor, clock, properties);
    }

    @Bean
    @ConditionalOnMissingBean
    DynamicRulesController ratelimitConsoleDynamicRules(ConsoleRules rules, AuditedEditor editor,
                                                        ConsoleMessages messages, ConsoleProperties properties) {
        return new DynamicRulesController(rules, editor, messages.source(), properties);
    }

    @Bean
    @ConditionalOnMissingBean
    DenyListController ratelimitConsoleDenyList(ConsoleRules rules, AuditedEditor editor, AuditTrail trail, LogClock clock,
                                                ConsoleMessages messages, ConsoleProperties properties) {
        return new DenyListController(rules, editor, trail, clock, messages.source(), properties);
    }

    @Bean
    @ConditionalOnMissingBean
    LogsController ratelimitConsoleLogs(ObjectProvider<LogReports> reports, LogClock clock, ConsoleMessages messages,
                                        ConsoleProperties properties) {
        return new LogsController(reports, clock, messages.source(), properties);
    }

    @Bean
    @ConditionalOnMissingBean
    LoginController ratelimitConsoleLogin(ObjectProvider<PasswordLogin> login, ObjectProvider<TrustedProxyResolver> proxies,
                                          ConsoleProperties properties) {
        return new LoginController(login, trusted(proxies), properties);
    }

    @Bean
    @ConditionalOnMissingBean
    AuditController ratelimitConsoleAudit(AuditTrail trail, LogClock clock, ConfigurableListableBeanFactory beans,
                                          Environment environment) {
        return new AuditController(trail, clock, MissingLogDatabase.of(beans, environment));
    }

    @Bean
    HmacSigner ratelimitConsoleSigner(ConsoleProperties properties) {
        return HmacSigner.of(properties.secret());
    }

    @Bean
    FilterRegistrationBean<ConsoleFilter> ratelimitConsoleFilter(ConsoleProperties properties,
                                                                 ConsoleAccessPolicy policy, HmacSigner signer,
                                                                 ObjectProvider<TrustedProxyResolver> proxies) {
        FilterRegistrationBean<ConsoleFilter> registration = new FilterRegistrationBean<>(
                new ConsoleFilter(properties.path(), policy, signer, trusted(proxies)));
        registration.addUrlPatterns(properties.path(), properties.path() + "/*");
        return registration;
    }

    /** The limiter's trusted-proxy rules: the console reads client addresses and HTTPS only through them. */
    private static TrustedProxyResolver trusted(ObjectProvider<TrustedProxyResolver> proxies) {
        return proxies.getIfAvailable(() -> new TrustedProxyResolver(List.of()));
    }

    /** The console's error page at its addresses, where Spring Boot's error handling is on. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(ErrorViewResolver.class)
    static class ErrorPages {

        @Bean
        @ConditionalOnMissingBean
        ConsoleErrorPages ratelimitConsoleErrorPages(ConsoleProperties properties) {
            return new ConsoleErrorPages(properties);
        }
    }

    @Bean
    WebMvcConfigurer ratelimitConsoleWebMvc(ConsoleProperties properties, AuditedEditor editor) {
        return new WebMvcConfigurer() {
            @Override
            public void addResourceHandlers(ResourceHandlerRegistry registry) {
                registry.addResourceHandler(properties.path() + "/assets/**")
                        .addResourceLocations("classpath:/ratelimit-console/assets/", ECHARTS_DIST);
            }

            @Override
            public void addInterceptors(InterceptorRegistry registry) {
                registry.addInterceptor(new ViewOnlyGuard(editor, properties.path()))
                        .addPathPatterns(properties.path() + "/**");
            }
        };
    }
}
