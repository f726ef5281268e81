package dev.ratelimit.interceptor;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.concurrent.TimeUnit;

/**
 * Limits how often a Spring MVC handler method, or a method of any other Spring bean, may be called.
 *
 * <p>Repeatable: every limit on a method applies, and any one of them denies. On a controller class it
 * limits each handler method of the class that declares no {@code @RateLimit} of its own (a method's own
 * limits replace the class's, as a method's {@code @Transactional} does; {@link RateLimitExempt} on a
 * method exempts it): each method counts on its own, under its own rule name, unless the class's
 * annotation names a {@link #rule()}, which makes every method of the class share one counter. The counters live in
 * Redis, so every instance of the app shares them. Operators can switch the limit off or change its
 * window and count at run time through the {@code <module>.<rule>.*} fields of the config hash.
 *
 * <p>On a method of a bean that is not a controller (an outbound client, a scheduled job, a message
 * listener) a call the limit refuses throws {@link RateLimitExceededException}, or first waits up to
 * {@link #maxWait()} for its turn; {@link #key()}, {@link #costExpression()}, {@link #plan()} and
 * {@link #countWhen()} then read the call ({@code #args}, {@code #p0}, parameter names, {@code #target};
 * {@code #result} and {@code #exception} in {@code countWhen}).
 *
 * <p>It can be a meta-annotation: a team's own {@code @LoginLimit}, annotated {@code @RateLimit(...)}, declares
 * that limit wherever it is put, and its attributes marked {@code @AliasFor(annotation = RateLimit.class)}
 * override the ones they name.
 *
 * <pre>{@code
 * @RateLimit(count = 5, interval = 1, unit = TimeUnit.MINUTES)                    // 5/min per user
 * @RateLimit(count = 100, interval = 1, unit = TimeUnit.MINUTES, dimension = Dimension.IP)
 * @PostMapping("/orders")
 * Order create(...) { ... }
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD, ElementType.ANNOTATION_TYPE})
@Repeatable(RateLimits.class)
public @interface RateLimit {

    /** Module name; empty means {@code ratelimit.module}, else {@code spring.application.name} without a leading {@code app-}. */
    String module() default "";

    /**
     * Rule name; empty means {@code ControllerSimpleName.methodName}. When a method carries several
     * limits, unnamed ones get {@code #<dimension>} appended (for example {@code OrderController.create#ip}).
     */
    String rule() default "";

    /** Maximum number of requests admitted per window. */
    long count() default 1;

    /** Window length, in {@link #unit()}. */
    long interval() default 1;

    TimeUnit unit() default TimeUnit.SECONDS;

    /** Whose requests are counted together. */
    Dimension dimension() default Dimension.USER;

    Algorithm algorithm() default Algorithm.FIXED_WINDOW;

    /**
     * For {@link Dimension#CUSTOM}: a SpEL expression evaluated against the request (variables
     * {@code #request}, {@code #pathVariables}, {@code #headers}); its string value is the identity.
     * An expression that yields a {@code CustomKeyResolver} (for example {@code @tenantKeys}) is asked instead.
     */
    String key() default "";

    /** Message key of the rejection text, resolved in the request's locale. */
    String messageKey() default "ratelimit.rejected";

    /**
     * Counts only the requests whose response matches: a SpEL expression on the response, with the
     * variables {@code #status} (the status code; 500 when the handler threw an exception nothing
     * handled), {@code #response} and {@code #request}; empty counts every request. For example
     * {@code "#status == 401 or #status == 403"} counts failed logins only.
     *
     * <p>Exact under concurrency: a request takes its unit before the handler runs, like any other, and
     * gives it back when its response does not match, in its window only. So no more than {@code count}
     * matching requests are ever run per window, however many arrive at once; the price is that requests
     * still running hold their units, so a burst can see denials that refunds then make room for. A
     * rejected request gives back what its other limits took. An expression that fails counts the request.
     */
    String countWhen() default "";

    /**
     * The penalty, in {@link #unit()}: once this limit denies a client, the client stays denied for this
     * long, whatever the window; 0 (the default) for none. While blocked, its attempts change no counter.
     */
    long penalty() default 0;

    /**
     * The longest penalty, in {@link #unit()}, for repeat offenders: each denial that follows a block
     * doubles the next one up to this; a client free for this long is forgiven. 0 (the default) means
     * {@link #penalty()}: every block the same.
     */
    long penaltyMax() default 0;

    /**
     * The units one request takes from {@link #count()}: a heavier request counts for more. At most
     * {@code count}, or the start fails: such a request could never pass.
     */
    long cost() default 1;

    /**
     * The units one request takes, computed for each request: a SpEL expression on the request with the
     * variables of {@link #key()} ({@code #request}, {@code #pathVariables}, {@code #headers}), e.g. the
     * number of items of a batch. A value below 1 counts 1; an expression that fails counts 1, with one
     * warning. A request whose cost exceeds {@code count} is refused with 400 and a message that says
     * so: waiting would not help it. Replaces {@link #cost()}.
     */
    String costExpression() default "";

    /**
     * The units a request really used, known only once it is done (tokens generated, bytes sent, rows
     * scanned): a SpEL expression on the finished response with the variables {@code #status},
     * {@code #response}, {@code #request} and {@code #reported}, what the handler reported through
     * {@code ResponseCost.report} (or {@code null}), e.g. {@code "#reported"} or
     * {@code "#response.getHeader('X-Tokens')"}. {@link #cost()} or {@link #costExpression()} is then the
     * estimate a request takes before its handler runs, so a burst cannot overrun the limit; after the
     * response the difference is given back or charged. A charge past the limit is a debt: the client is
     * refused, with the true wait, until the windows after it pay it off. A value that is not a whole number
     * of 0 or more, or an expression that fails, keeps the estimate (one warning); {@code null} keeps it
     * silently. {@link Algorithm#FIXED_WINDOW} and {@link Algorithm#TOKEN_BUCKET} only, without
     * {@link #countWhen()} or {@link #quota()}.
     */
    String costFromResponse() default "";

    /**
     * A calendar quota: {@link #count()} per local day, ISO week or month, resetting at local midnight (on
     * Monday, on the 1st) in {@link #zone()}, across daylight-saving changes and month ends. The window is
     * then the period, so {@link #interval()} and {@link #unit()} are not given, and the algorithm is the
     * fixed window, the only one a calendar period fits.
     */
    QuotaPeriod quota() default QuotaPeriod.NONE;

    /**
     * The client's plan, for different limits for different kinds of client without a rule per plan: a
     * SpEL expression on the request with the variables of {@link #key()}, e.g. {@code #headers['X-Plan']}
     * (set by the gateway) or {@code @plans.of(#request)} (a claim, a database flag). The config hash's
     * {@code <module>.<rule>.plan.<plan>} fields ({@code <count>/<interval>}) give each plan its limit; a
     * client without a plan, or of a plan without a field, gets this annotation's. Operators' exceptions
     * for one client ({@code <module>.<rule>.exception.<identity>}) come first, plan or not.
     */
    String plan() default "";

    /** The time zone of a {@link #quota()}, e.g. {@code "Europe/Paris"}; empty means {@code ratelimit.quota.zone}. */
    String zone() default "";

    /**
     * For a method of a bean that is not a controller: how long a refused call waits for its turn, e.g.
     * {@code "500ms"} or {@code "2s"}; empty (the default) throws {@link RateLimitExceededException} at once.
     * Each attempt counts like a call, so waiting callers are admitted as the window allows, never more; a
     * call told to wait longer than what is left of this throws at once. With several limits on a method
     * the longest applies. A request to a controller is answered at once: there it fails the start.
     */
    String maxWait() default "";
}
