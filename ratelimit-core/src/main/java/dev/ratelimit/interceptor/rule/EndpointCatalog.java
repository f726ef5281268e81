package dev.ratelimit.interceptor.rule;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.Dimension;
import dev.ratelimit.interceptor.QuotaPeriod;
import dev.ratelimit.interceptor.RateLimit;
import dev.ratelimit.interceptor.RateLimitExempt;
import dev.ratelimit.interceptor.RateLimits;
import dev.ratelimit.interceptor.store.Penalty;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.StringJoiner;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.MergedAnnotations;

/**
 * Every handler method of the app with its name and declared limits. Filled once at start-up from the
 * handler mappings (the web layer's adapter hands them over as {@link HttpHandler}s), so a misdeclared {@code @RateLimit} fails the start with the method named, and
 * read on every request with one map lookup. Beside them, the endpoints of calls: the limited methods
 * of beans that are not controllers, and the rules defined in code, checked by the same code.
 *
 * <p>Each handler method gets a rule name of its own, because counters, config fields and the API
 * index are addressed by name. When two derive the same name (overloads, or equal simple class
 * names in two packages), the one first in the order of {@link Endpoint#handler()} keeps it, the
 * others get {@code ~2}, {@code ~3}..., and a warning names both. Explicit {@code @RateLimit(rule = ...)}
 * names are kept as given: sharing one on purpose shares its counter.
 */
public final class EndpointCatalog {

    private static final Logger log = LoggerFactory.getLogger(EndpointCatalog.class);

    private final RuleNaming naming;
    private final Set<Algorithm> supportedAlgorithms;
    private final Consumer<String> customKeyParser;
    private final Consumer<String> responseExpressionParser;
    private final Consumer<String> requestExpressionParser;
    private final long leaseSeconds;
    private final ConcurrentMap<EndpointKey, Endpoint> endpoints = new ConcurrentHashMap<>();
    /** The rules defined in code, by name. */
    private final ConcurrentMap<String, Endpoint> codeRules = new ConcurrentHashMap<>();
    /** Grows with each endpoint registered, so that what was made from the endpoints knows it is outdated. */
    private final AtomicLong version = new AtomicLong();
    /** What owns each endpoint rule name: a Java method, or what defines a rule in code; guarded by itself. */
    private final Map<String, String> ruleOwners = new HashMap<>();

    /**
     * @param supportedAlgorithms the algorithms of the counter store; a limit with another fails
     * @param customKeyParser     parses (and keeps) the key expression of a CUSTOM limit, throwing
     *                            {@link IllegalArgumentException} when it does not parse
     * @param responseExpressionParser     the same for an expression on the response: a {@code countWhen} or a
     *                            {@code costFromResponse}
     * @param requestExpressionParser the same for a {@code costExpression} or a {@code plan}
     * @param lease               the window of a {@link Algorithm#CONCURRENCY} limit ({@code ratelimit.concurrency.lease})
     */
    public EndpointCatalog(RuleNaming naming, Set<Algorithm> supportedAlgorithms, Consumer<String> customKeyParser,
                           Consumer<String> responseExpressionParser, Consumer<String> requestExpressionParser, Duration lease) {
        this.naming = naming;
        this.supportedAlgorithms = Set.copyOf(supportedAlgorithms);
        this.customKeyParser = customKeyParser;
        this.responseExpressionParser = responseExpressionParser;
        this.requestExpressionParser = requestExpressionParser;
        this.leaseSeconds = lease.toSeconds();
    }

    /**
     * Registers the handler methods of one handler mapping, as endpoints of kind {@link Endpoint.Kind#HTTP};
     * throws if a declaration is invalid.
     */
    public void registerHandlers(Collection<HttpHandler> handlers) {
        List<HttpHandler> ordered = new ArrayList<>(handlers);
        // One order on every start, so the same handler method keeps the plain name of a collision.
        ordered.sort(Comparator.comparing(handler -> new EndpointKey(handler.controller(), handler.method()).handler()));
        for (HttpHandler handler : ordered) {
            if (!isExempt(handler.controller(), handler.method())) {
                EndpointKey key = new EndpointKey(handler.controller(), handler.method());
                endpoints.put(key, describe(key, Endpoint.Kind.HTTP, handler.patterns(), handler.httpMethods()));
                version.incrementAndGet();
            }
        }
    }

    /**
     * Registers the methods with {@code @RateLimit} of beans that are not controllers (the handler mappings
     * register those), as endpoints of kind {@link Endpoint.Kind#METHOD}; throws if a declaration is invalid,
     * or if one could never apply: on a private, static or final method, which no Spring proxy intercepts,
     * or on such a class, where it would be read as limiting the handler methods of a controller.
     */
    public void registerMethods(Collection<Class<?>> beanTypes) {
        List<EndpointKey> keys = new ArrayList<>();
        for (Class<?> type : beanTypes) {
            if (isLimited(type)) {
                throw new IllegalStateException("Invalid @RateLimit on " + type.getName() + ": on a class it limits "
                        + "the handler methods of a controller, and this bean is none; put it on the methods to limit");
            }
            MethodIntrospector.selectMethods(type, (MethodIntrospector.MetadataLookup<Boolean>) method ->
                    isLimited(method) ? Boolean.TRUE : null).keySet().forEach(method -> keys.add(new EndpointKey(type, method)));
        }
        // One order on every start, so the same method keeps the plain name of a collision.
        keys.sort(Comparator.comparing(EndpointKey::handler));
        for (EndpointKey key : keys) {
            int modifiers = key.method().getModifiers();
            if (Modifier.isPrivate(modifiers) || Modifier.isStatic(modifiers) || Modifier.isFinal(modifiers)) {
                throw invalid(key.subject(), "the method is " + Modifier.toString(modifiers & (Modifier.PRIVATE
                        | Modifier.STATIC | Modifier.FINAL)) + ", and no Spring proxy intercepts such a method");
            }
            if (!isExempt(key.controller(), key.method())) {
                endpoints.put(key, describe(key, Endpoint.Kind.METHOD, List.of(), Set.of()));
                version.incrementAndGet();
            }
        }
    }

    /**
     * The endpoint of a limited method of a bean that is not a controller, or {@code null} for a method
     * without {@code @RateLimit} or a {@link RateLimitExempt} one. A method that was not registered (of a
     * bean made at run time) is described on first use.
     */
    public @Nullable Endpoint endpoint(Class<?> beanType, Method method) {
        EndpointKey key = new EndpointKey(beanType, method);
        Endpoint endpoint = endpoints.get(key);
        if (endpoint != null || !isLimited(method) || isExempt(beanType, method)) {
            return endpoint;
        }
        Endpoint described = endpoints.computeIfAbsent(key,
                absent -> describe(absent, Endpoint.Kind.METHOD, List.of(), Set.of()));
        version.incrementAndGet();
        return described;
    }

    /**
     * Registers a rule defined in code, as an endpoint of kind {@link Endpoint.Kind#CODE} whose one limit is
     * {@code rule}: checked as the same annotation on a method would be, but counted under the identity each
     * call names, so a {@code CUSTOM} one has no key. Its name is its own: one that another endpoint or rule
     * has fails the start.
     *
     * @param definedBy what defines it, for messages and the API index, e.g. {@code RateLimitRule bean 'partnerCalls'}
     */
    public Endpoint registerRule(String definedBy, RateLimit rule) {
        String name = rule.rule().strip();
        synchronized (ruleOwners) {
            String owner = ruleOwners.putIfAbsent(name, definedBy);
            if (owner != null && !owner.equals(definedBy)) {
                throw invalid(definedBy, "the rule name '" + name + "' is taken by " + owner);
            }
        }
        RuleId id = RuleId.of(naming.module(rule), name);
        Endpoint endpoint = new Endpoint(id, Endpoint.Kind.CODE, List.of(), Set.of(), definedBy,
                List.of(define(definedBy, Endpoint.Kind.CODE, name, rule, 1)), false, Duration.ZERO);
        codeRules.put(name, endpoint);
        version.incrementAndGet();
        return endpoint;
    }

    /**
     * The endpoint of a handler method on its controller, or {@code null} for a {@link RateLimitExempt} one. A
     * handler that was not registered (added at run time) is described on first use.
     */
    public @Nullable Endpoint handlerEndpoint(Class<?> controller, Method method) {
        EndpointKey key = new EndpointKey(controller, method);
        Endpoint endpoint = endpoints.get(key);
        if (endpoint != null || isExempt(controller, method)) {
            return endpoint;
        }
        Endpoint described = endpoints.computeIfAbsent(key, absent -> describe(absent, Endpoint.Kind.HTTP, Set.of(), Set.of()));
        version.incrementAndGet(); // once it is in the map: a reader of the version then finds it
        return described;
    }

    /** Grows with each endpoint registered. */
    public long version() {
        return version.get();
    }

    /** Whether an endpoint of this app declares the rule: an annotation's, or a rule defined in code. */
    public boolean declares(RuleId rule) {
        for (Endpoint endpoint : endpoints()) {
            for (LimitDefinition limit : endpoint.limits()) {
                if (limit.id().equals(rule)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** All registered endpoints, ordered by id. */
    public List<Endpoint> endpoints() {
        List<Endpoint> all = new ArrayList<>(endpoints.values());
        all.addAll(codeRules.values());
        all.sort(Comparator.comparing(Endpoint::id));
        return all;
    }

    public RuleNaming naming() {
        return naming;
    }

    private static boolean isExempt(Class<?> type, Method method) {
        return AnnotatedElementUtils.hasAnnotation(type, RateLimitExempt.class)
                || AnnotatedElementUtils.hasAnnotation(method, RateLimitExempt.class);
    }

    /**
     * Whether a method (or a class) declares limits of its own: {@code @RateLimit}, on it or on the method it
     * implements.
     */
    public static boolean isLimited(AnnotatedElement element) {
        // One search of the hierarchy for both: the standard repeatable containers show a @RateLimits' own
        // @RateLimit. It runs for every method of every bean at start-up, through the method advisor's pointcut.
        return MergedAnnotations.from(element, MergedAnnotations.SearchStrategy.TYPE_HIERARCHY)
                .isPresent(RateLimit.class);
    }

    private Endpoint describe(EndpointKey key, Endpoint.Kind kind, Collection<String> patterns, Set<String> httpMethods) {
        String rule = ruleOf(key);
        Set<RateLimit> own = AnnotatedElementUtils.findMergedRepeatableAnnotations(key.method(), RateLimit.class,
                RateLimits.class);
        Set<RateLimit> annotations = own.isEmpty() && kind == Endpoint.Kind.HTTP
                ? AnnotatedElementUtils.findMergedRepeatableAnnotations(key.controller(), RateLimit.class,
                RateLimits.class) : own;
        return new Endpoint(RuleId.of(naming.module(), rule), kind, new ArrayList<>(new TreeSet<>(patterns)),
                httpMethods, key.handler(), limitsOf(key.subject(), kind, rule, annotations),
                own.isEmpty() && !annotations.isEmpty(), maxWait(key.subject(), kind, annotations));
    }

    /** The derived rule name of a handler method, made unique among the app's handler methods. */
    private String ruleOf(EndpointKey key) {
        String derived = naming.rule(key.controller(), key.method());
        String handler = key.handler();
        synchronized (ruleOwners) {
            String first = ruleOwners.putIfAbsent(derived, handler);
            if (first == null || first.equals(handler)) {
                return derived;
            }
            for (int ordinal = 2; ; ordinal++) {
                String candidate = naming.disambiguated(derived, ordinal);
                String owner = ruleOwners.putIfAbsent(candidate, handler);
                if (owner == null) {
                    log.warn("Handler methods {} and {} both derive the rate limit rule name '{}.{}'; the second is "
                            + "named '{}.{}' (its counters, config fields, dyn.* rule and API index entry use that "
                            + "name). Rename one of them to choose the names yourself.", first, handler,
                            naming.module(), derived, naming.module(), candidate);
                    return candidate;
                }
                if (owner.equals(handler)) {
                    return candidate;
                }
            }
        }
    }

    private List<LimitDefinition> limitsOf(String subject, Endpoint.Kind kind, String endpointRule,
                                           Set<RateLimit> annotations) {
        List<LimitDefinition> limits = new ArrayList<>(annotations.size());
        Set<RuleId> ids = new HashSet<>();
        for (RateLimit annotation : annotations) {
            LimitDefinition limit = define(subject, kind, endpointRule, annotation, annotations.size());
            if (!ids.add(limit.id())) {
                throw invalid(subject, "two limits are both named '" + limit.id()
                        + "'; give each @RateLimit of the same dimension its own rule = \"...\"");
            }
            limits.add(limit);
        }
        return limits;
    }

    /** How long a refused call waits: the longest {@code maxWait} of its limits; a request never waits. */
    private static Duration maxWait(String subject, Endpoint.Kind kind, Set<RateLimit> annotations) {
        Duration longest = Duration.ZERO;
        for (RateLimit annotation : annotations) {
            String text = annotation.maxWait().strip();
            if (text.isEmpty()) {
                continue;
            }
            if (kind != Endpoint.Kind.METHOD) {
                throw invalid(subject, "maxWait is for methods of beans that are not controllers: a request is "
                        + "answered at once");
            }
            Duration wait;
            try {
                wait = DurationStyle.detectAndParse(text);
            } catch (IllegalArgumentException e) {
                throw invalid(subject, "maxWait '" + text + "' is not a duration such as 500ms or 2s");
            }
            if (wait.isNegative()) {
                throw invalid(subject, "maxWait '" + text + "' is negative");
            }
            longest = wait.compareTo(longest) > 0 ? wait : longest;
        }
        return longest;
    }

    private LimitDefinition define(String subject, Endpoint.Kind kind, String endpointRule, RateLimit annotation,
                                   int total) {
        if (!supportedAlgorithms.contains(annotation.algorithm())) {
            throw invalid(subject, "algorithm " + annotation.algorithm() + " is not supported by this store");
        }
        if (kind == Endpoint.Kind.CODE && annotation.algorithm() == Algorithm.CONCURRENCY) {
            throw invalid(subject, "a rule defined in code cannot limit calls running at once: no call's end would "
                    + "release its slot; put @RateLimit(algorithm = CONCURRENCY) on the method that runs");
        }
        // A rule defined in code counts the identity each call names: it has no key to read.
        if (annotation.dimension() == Dimension.CUSTOM && kind != Endpoint.Kind.CODE) {
            if (annotation.key().isBlank()) {
                throw invalid(subject, "dimension CUSTOM needs key = \"<SpEL expression>\"");
            }
            try {
                customKeyParser.accept(annotation.key());
            } catch (IllegalArgumentException e) {
                throw invalid(subject, e.getMessage());
            }
        } else if (!annotation.key().isBlank()) {
            throw invalid(subject, "key is only read with dimension = CUSTOM, this limit counts per "
                    + annotation.dimension());
        }
        String countWhen = annotation.countWhen().strip();
        CalendarQuota quota = quota(annotation);
        try {
            long windowSeconds = quota.isCalendar() ? annotation.quota().longestSeconds()
                    : annotation.algorithm() == Algorithm.CONCURRENCY ? lease(annotation)
                    : annotation.unit().toSeconds(annotation.interval());
            if (!countWhen.isEmpty()) {
                parseOnResponse("countWhen", countWhen);
            }
            return new LimitDefinition(RuleId.of(naming.module(annotation), naming.rule(endpointRule, annotation, total)),
                    annotation.count(), windowSeconds, annotation.dimension(), annotation.algorithm(),
                    annotation.key(), annotation.messageKey(), countWhen, penalty(annotation), cost(annotation, quota), quota,
                    plan(annotation));
        } catch (IllegalArgumentException e) {
            throw invalid(subject, e.getMessage());
        }
    }

    private String plan(RateLimit annotation) {
        String plan = annotation.plan().strip();
        if (!plan.isEmpty()) {
            requestExpressionParser.accept(plan);
        }
        return plan;
    }

    /** A calendar quota's period and zone: a fixed window, without an interval of its own. */
    private static CalendarQuota quota(RateLimit annotation) {
        String zone = annotation.zone().strip();
        if (annotation.quota() == QuotaPeriod.NONE) {
            if (!zone.isEmpty()) {
                throw new IllegalArgumentException("zone is only read with a quota period");
            }
            return CalendarQuota.NONE;
        }
        if (annotation.interval() != 1 || annotation.unit() != TimeUnit.SECONDS) {
            throw new IllegalArgumentException("a quota of one " + annotation.quota() + " has no interval or unit");
        }
        if (annotation.algorithm() != Algorithm.FIXED_WINDOW) {
            throw new IllegalArgumentException("a quota of one " + annotation.quota()
                    + " is a fixed window: algorithm " + annotation.algorithm() + " does not fit a calendar period");
        }
        try {
            return new CalendarQuota(annotation.quota(), zone.isEmpty() ? null : ZoneId.of(zone));
        } catch (DateTimeException e) {
            throw new IllegalArgumentException("zone '" + zone + "' is not a time zone: " + e.getMessage(), e);
        }
    }

    /** A concurrency limit's window is its lease, which the annotation leaves to the app's setting and operators. */
    private long lease(RateLimit annotation) {
        if (annotation.interval() != 1 || annotation.unit() != TimeUnit.SECONDS) {
            throw new IllegalArgumentException("a CONCURRENCY limit has no interval or unit: its window is its lease, "
                    + "ratelimit.concurrency.lease (" + leaseSeconds + " s), which the rule's interval field overrides");
        }
        return leaseSeconds;
    }

    /**
     * The annotation's {@code cost} or {@code costExpression}, and its {@code costFromResponse}; a fixed cost
     * above the count could never pass.
     */
    private RequestCost cost(RateLimit annotation, CalendarQuota quota) {
        String fromResponse = costFromResponse(annotation, quota);
        String expression = annotation.costExpression().strip();
        if (!expression.isEmpty()) {
            if (annotation.cost() != 1) {
                throw new IllegalArgumentException("give cost or costExpression, not both");
            }
            requestExpressionParser.accept(expression);
            return new RequestCost(1, expression, fromResponse);
        }
        if (annotation.count() >= 1 && annotation.cost() > annotation.count()) { // a count below 1 is reported as such
            throw new IllegalArgumentException("cost " + annotation.cost() + " is above count " + annotation.count()
                    + ": no request could ever pass");
        }
        return annotation.cost() == 1 && fromResponse.isEmpty() ? RequestCost.ONE
                : new RequestCost(annotation.cost(), "", fromResponse);
    }

    /** The expression of what a request used, settled after its response: on the limits that can carry a debt. */
    private String costFromResponse(RateLimit annotation, CalendarQuota quota) {
        String fromResponse = annotation.costFromResponse().strip();
        if (fromResponse.isEmpty()) {
            return fromResponse;
        }
        if (annotation.algorithm() != Algorithm.FIXED_WINDOW && annotation.algorithm() != Algorithm.TOKEN_BUCKET) {
            throw new IllegalArgumentException("costFromResponse settles on FIXED_WINDOW and TOKEN_BUCKET, which carry "
                    + "a debt into the time after it; " + annotation.algorithm() + " cannot");
        }
        if (!annotation.countWhen().isBlank()) {
            throw new IllegalArgumentException("give countWhen or costFromResponse, not both: a response that costs "
                    + "nothing can say 0");
        }
        if (quota.isCalendar()) {
            throw new IllegalArgumentException("costFromResponse does not settle a calendar quota: a debt cannot carry "
                    + "into periods of other lengths");
        }
        parseOnResponse("costFromResponse", fromResponse);
        return fromResponse;
    }

    /** Parses an expression on the response, naming the attribute it is, should it not parse. */
    private void parseOnResponse(String attribute, String expression) {
        try {
            responseExpressionParser.accept(expression);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(attribute + " " + e.getMessage(), e);
        }
    }

    /** The annotation's {@code penalty} and {@code penaltyMax}, each at most a year. */
    private static Penalty penalty(RateLimit annotation) {
        long first = annotation.penalty();
        long longest = annotation.penaltyMax() == 0 ? first : annotation.penaltyMax();
        if (first < 0 || longest < first || (first == 0 && longest > 0)) {
            throw new IllegalArgumentException("penalty must be 0 or more and penaltyMax 0 or at least penalty, was "
                    + annotation.penalty() + " and " + annotation.penaltyMax());
        }
        long longestSeconds = annotation.unit().toSeconds(longest);
        if (longestSeconds > LimitDefinition.MAX_WINDOW_SECONDS) {
            throw new IllegalArgumentException("penaltyMax (or penalty) is longer than a year: " + longestSeconds + " s");
        }
        return first == 0 ? Penalty.NONE
                : new Penalty(annotation.unit().toMillis(first), annotation.unit().toMillis(longest));
    }

    /** @param subject what declares the limit: {@code com.shop.OrderController.create}, or what defines a rule in code */
    private static IllegalStateException invalid(String subject, @Nullable String problem) {
        return new IllegalStateException("Invalid @RateLimit on " + subject + ": " + problem);
    }

    /**
     * A handler method is its method on its controller class: one inherited method may serve two controllers.
     * A limited bean method likewise, on its bean's class.
     */
    private record EndpointKey(Class<?> controller, Method method) {

        /** The method as messages name it, e.g. {@code com.shop.OrderController.create}. */
        String subject() {
            return controller.getName() + "." + method.getName();
        }

        /** The Java method, e.g. {@code com.shop.OrderController.create(java.lang.String)}. */
        String handler() {
            StringJoiner parameters = new StringJoiner(",", "(", ")");
            for (Class<?> type : method.getParameterTypes()) {
                parameters.add(type.getTypeName());
            }
            return controller.getName() + "." + method.getName() + parameters;
        }
    }
}
