package dev.ratelimit.interceptor.method;

import dev.ratelimit.interceptor.RateLimitExceededException;
import dev.ratelimit.interceptor.config.RuleCatalog;
import dev.ratelimit.interceptor.decision.RequestLimiter;
import dev.ratelimit.interceptor.decision.Verdict;
import dev.ratelimit.interceptor.identity.CurrentClient;
import dev.ratelimit.interceptor.rule.Endpoint;
import dev.ratelimit.interceptor.rule.LimitDefinition;
import dev.ratelimit.interceptor.rule.RuleId;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Decides calls made in the app, as the request path decides requests (the same {@link RequestLimiter}:
 * counters, meters, statistics, interception log), and waits for a refused call's turn: each attempt
 * is a real decision, so waiting callers are admitted as the window allows and never more; between two
 * attempts a caller sleeps until the time the refusal named, when a call would be admitted (the
 * instance's near cache answers the attempts of clients it knows to be refused without Redis). A call
 * told to wait longer than it may is refused at once, not after waiting in vain.
 */
public class CallLimiter {

    private final RuleCatalog catalog;
    private final RequestLimiter limiter;
    private final CurrentClient clients;
    private final Pause pause;

    public CallLimiter(RuleCatalog catalog, RequestLimiter limiter, CurrentClient clients) {
        this(catalog, limiter, clients, wait -> TimeUnit.NANOSECONDS.sleep(wait.toNanos()));
    }

    CallLimiter(RuleCatalog catalog, RequestLimiter limiter, CurrentClient clients, Pause pause) {
        this.catalog = catalog;
        this.limiter = limiter;
        this.clients = clients;
        this.pause = pause;
    }

    /**
     * Counts one call against {@code rule} under {@code identity}, without waiting.
     *
     * @return whether the call may go on
     * @throws IllegalArgumentException when no endpoint declares the rule and no {@code RateLimitRule} defines it
     */
    public boolean tryAcquire(RuleId rule, String identity) {
        return goesOn(await(named(rule, identity), Duration.ZERO));
    }

    /**
     * Counts one call against {@code rule} under {@code identity}, waiting up to {@code maxWait} for its turn.
     *
     * @throws RateLimitExceededException when the rule refuses the call and no wait within {@code maxWait} helps
     * @throws IllegalArgumentException   when no endpoint declares the rule and no {@code RateLimitRule} defines
     *                                    it, or when the call weighs more than the rule's whole count
     */
    public void acquire(RuleId rule, String identity, Duration maxWait) {
        Verdict verdict = await(named(rule, identity), maxWait);
        if (!goesOn(verdict)) {
            throw refusal(verdict, rule);
        }
    }

    /** The verdict on a call of a limited bean method, after waiting up to its {@code maxWait}; throws when refused. */
    Verdict admit(Endpoint endpoint, MethodCall call) {
        Verdict verdict = await(() -> limiter.decide(endpoint, call), endpoint.maxWait());
        if (!goesOn(verdict)) {
            throw refusal(verdict, endpoint.id());
        }
        return verdict;
    }

    /**
     * Ends a call that went on: its leases are released, what its {@code countWhen} limits took goes back
     * unless the call matches, and its estimates are settled at what {@code costFromResponse} says it used.
     */
    void complete(Verdict verdict, MethodCall call, @Nullable Object result, @Nullable Throwable exception) {
        limiter.complete(verdict.reservations(), call.ended(result, exception));
    }

    private Supplier<Verdict> named(RuleId rule, String identity) {
        Endpoint endpoint = catalog.current().declaring(rule).orElseThrow(() -> new IllegalArgumentException(
                "No rate limit rule " + rule + ": declare it with @RateLimit or define it with a RateLimitRule bean"));
        // Code that counts a call says nothing of its end, which alone would release a slot.
        if (endpoint.limits().stream().anyMatch(limit -> limit.id().equals(rule) && limit.isConcurrency())) {
            throw new IllegalArgumentException("Rule " + rule + " limits calls running at once: only its method's own "
                    + "calls, whose end releases their slot, can be counted against it");
        }
        NamedCall call = new NamedCall(endpoint, identity, clients);
        return () -> limiter.decide(rule, call);
    }

    /**
     * The verdict of the last attempt: one that lets the call go on, or a refusal whose wait does not fit in
     * what is left of {@code maxWait}, or that no wait would end.
     */
    private Verdict await(Supplier<Verdict> attempt, Duration maxWait) {
        long deadline = System.nanoTime() + maxWait.toNanos();
        while (true) {
            Verdict verdict = attempt.get();
            Duration wait = wait(verdict);
            if (wait == null || wait.toNanos() > deadline - System.nanoTime()) {
                return verdict;
            }
            try {
                pause.pause(wait);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return verdict;
            }
        }
    }

    private static boolean goesOn(Verdict verdict) {
        return verdict.kind() == Verdict.Kind.PASS || verdict.kind() == Verdict.Kind.ADMIT;
    }

    /** How long until a refused call would be admitted, at least a millisecond; {@code null} when nothing to wait for. */
    private static @Nullable Duration wait(Verdict verdict) {
        long millis = switch (verdict.kind()) {
            case REJECT -> verdict.reportedDecision().retryAfterMillis();
            case REFUSE -> verdict.retryAfter().toMillis();
            default -> -1;
        };
        return millis < 0 ? null : Duration.ofMillis(Math.max(1, millis));
    }

    /** @param subject what was called, named when the failure policy refused it without a limit deciding */
    private RuntimeException refusal(Verdict verdict, RuleId subject) {
        if (verdict.kind() == Verdict.Kind.DENY) {
            // Named as the deny list's refusals are metered; no wait ends a denial sooner than its entry.
            return RateLimitExceededException.denied(RuleId.of(catalog.naming().module(), Objects.requireNonNull(verdict.denial(), "a denial names its entry").kind().rule()),
                    verdict.retryAfter());
        }
        if (verdict.kind() == Verdict.Kind.TOO_COSTLY) {
            LimitDefinition limit = verdict.reportedLimit();
            return new IllegalArgumentException("The call weighs " + verdict.cost() + ", more than the " + limit.count()
                    + " that rule " + limit.id() + " allows per " + limit.windowSeconds() + " s: no wait would admit it");
        }
        // What is left is a REJECT or a REFUSE, which both name how long until a call would be admitted.
        return new RateLimitExceededException(verdict.kind() == Verdict.Kind.REJECT ? verdict.reportedLimit().id()
                : subject, Objects.requireNonNull(wait(verdict), "a refusal names its wait"));
    }

    /** Sleeps between two attempts; tests see the waits instead. */
    @FunctionalInterface
    interface Pause {
        void pause(Duration wait) throws InterruptedException;
    }
}
