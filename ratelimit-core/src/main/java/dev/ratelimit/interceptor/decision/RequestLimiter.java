package dev.ratelimit.interceptor.decision;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.Dimension;
import dev.ratelimit.interceptor.store.RedisKeys;
import dev.ratelimit.interceptor.config.RuleCatalog;
import dev.ratelimit.interceptor.config.RuleSnapshot;
import dev.ratelimit.interceptor.config.RulesInForce;
import dev.ratelimit.interceptor.identity.DenyList;
import dev.ratelimit.interceptor.identity.Whitelist;
import dev.ratelimit.interceptor.internal.lease.HeldLeases;
import dev.ratelimit.interceptor.log.Interception;
import dev.ratelimit.interceptor.log.InterceptionLog;
import dev.ratelimit.interceptor.metrics.Outcome;
import dev.ratelimit.interceptor.metrics.RateLimitMetrics;
import dev.ratelimit.interceptor.rule.Endpoint;
import dev.ratelimit.interceptor.rule.LimitDefinition;
import dev.ratelimit.interceptor.rule.RuleId;
import dev.ratelimit.interceptor.store.CounterRequest;
import dev.ratelimit.interceptor.store.Decision;
import dev.ratelimit.interceptor.store.RateLimitStore;
import dev.ratelimit.interceptor.store.Refund;
import dev.ratelimit.interceptor.store.Settlement;
import dev.ratelimit.interceptor.store.StoreResult;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Decides one request, without the servlet API: the deny list, the limits in force for its endpoint (from
 * the rules in force, {@link RuleCatalog}, without calling Redis), the whitelist, one counter per limit and identity,
 * one store call for all of them, the meters and interception log rows of every decision, and then,
 * among the enforced limits (a limit in shadow mode only logs and meters its denial), the most
 * restrictive denial. A store that fails never fails the request. What a request took that its ending
 * settles (units of {@code countWhen} limits, the leases of concurrency limits, estimates of costs
 * settled after the response) is settled through {@link #complete}. Each decision on a limited request (or one
 * the deny list could refuse) is a {@link VerdictObservation}; with the no-op registry it costs nothing.
 */
public class RequestLimiter {

    private static final VerdictObservationConvention DEFAULT_CONVENTION = new DefaultVerdictObservationConvention();

    private final RuleCatalog catalog;
    private final CounterKeys keys;
    private final RateLimitStore store;
    private final InterceptionLog interceptionLog;
    private final RateLimitMetrics metrics;
    private final Whitelist whitelist;
    private final Clock clock;
    private final QuotaPeriods quotaPeriods;
    private final HeldLeases leases;
    private final ObservationRegistry observations;
    private final @Nullable VerdictObservationConvention convention;
    private final Set<RuleId> excludedFromBatches;
    /** The kind of store, for the observations. */
    private final String storeType;
    /** The app's module, for the observations. */
    private final String module;
    private final FailureWarnings failures = new FailureWarnings();
    /** The rules the deny list's refusals are metered under: {@code deny.ip}, {@code deny.user}, {@code deny.key} of the module. */
    private final Map<DenyList.Kind, RuleId> denyRules = new EnumMap<>(DenyList.Kind.class);

    /**
     * @param whitelist clients never limited, besides those of the config hash
     * @param quotaZone the time zone of calendar quotas that name none ({@code ratelimit.quota.zone})
     * @param leases    the leases of this instance's requests running under concurrency limits
     * @param observations where decisions are observed ({@link ObservationRegistry#NOOP} for nowhere)
     * @param convention   the names and tags of those observations; {@code null} for the default
     * @param excludedFromBatches the rules whose counters are never batched ({@code ratelimit.hot-keys.excluded-rules})
     */
    public RequestLimiter(RuleCatalog catalog, RedisKeys keys, RateLimitStore store, InterceptionLog interceptionLog,
                          RateLimitMetrics metrics, Whitelist whitelist, Clock clock, ZoneId quotaZone,
                          HeldLeases leases, ObservationRegistry observations,
                          @Nullable VerdictObservationConvention convention, Set<RuleId> excludedFromBatches) {
        this.catalog = catalog;
        this.excludedFromBatches = Set.copyOf(excludedFromBatches);
        this.keys = new CounterKeys(keys);
        this.store = store;
        this.interceptionLog = interceptionLog;
        this.metrics = metrics;
        this.whitelist = whitelist;
        this.clock = clock;
        this.quotaPeriods = new QuotaPeriods(quotaZone, clock);
        this.leases = leases;
        this.observations = observations;
        this.convention = convention;
        this.storeType = store.describe().type();
        this.module = catalog.naming().module();
        for (DenyList.Kind kind : DenyList.Kind.values()) {
            denyRules.put(kind, RuleId.of(module, kind.rule()));
        }
    }

    public Verdict decide(Endpoint endpoint, LimitedRequest request) {
        RulesInForce rules = catalog.current();
        if (!rules.snapshot().globalCheck()) {
            return Verdict.PASS;
        }
        return decide(rules, rules.limits(endpoint, request::path), request);
    }

    /**
     * Decides a call that code counts against one rule by its id ({@code RateLimitService}): the rule as it
     * is in force, its switch, mode and the client's exception applied; nothing when it is switched off.
     */
    public Verdict decide(RuleId rule, LimitedRequest request) {
        RulesInForce rules = catalog.current();
        if (!rules.snapshot().globalCheck()) {
            return Verdict.PASS;
        }
        return decide(rules, rules.limit(rule).map(List::of).orElse(List.of()), request);
    }

    private Verdict decide(RulesInForce rules, List<LimitDefinition> inForce, LimitedRequest request) {
        DenyList denyList = rules.snapshot().denyList();
        // Before anything is counted, and before the whitelist: a denial is an operator's explicit, narrower
        // decision. Endpoints without a limit too: a denied client is refused everywhere.
        DenyList.Entry denial = denyList.isEmpty() ? null : denial(denyList, request, inForce);
        if (inForce.isEmpty() && denial == null) {
            return Verdict.PASS; // nothing to decide, and nothing to observe: an endpoint without a limit pays nothing
        }
        VerdictContext context = new VerdictContext(module, storeType);
        if (observations.isNoop()) {
            return decide(rules, inForce, request, denial, context); // no handler: no observation, nor its scope, to pay for
        }
        Observation observation = VerdictObservation.VERDICT.observation(convention,
                DEFAULT_CONVENTION, () -> context, observations).start();
        // In scope while it decides, so that the store client's own observations (Lettuce's) nest in it.
        try (Observation.Scope scope = observation.openScope()) {
            Verdict verdict = decide(rules, inForce, request, denial, context);
            if (context.refused()) {
                observation.event(VerdictObservation.Events.REFUSED);
            }
            return verdict;
        } catch (RuntimeException e) {
            observation.error(e);
            throw e;
        } finally {
            observation.stop();
        }
    }

    private Verdict decide(RulesInForce rules, List<LimitDefinition> inForce, LimitedRequest request,
                           DenyList.@Nullable Entry denial, VerdictContext context) {
        return denial != null ? deny(request, rules.snapshot(), denial, context) : count(rules, inForce, request, context);
    }

    private Verdict count(RulesInForce rules, List<LimitDefinition> inForce, LimitedRequest request,
                          VerdictContext context) {
        RuleSnapshot snapshot = rules.snapshot();
        // After the rule lookup, so that unlimited endpoints never pay for resolving who the client is.
        if (whitelisted(request, snapshot.whitelist())) {
            inForce.forEach(limit -> outcome(context, limit.id(), Outcome.SKIPPED));
            return Verdict.PASS;
        }
        List<LimitDefinition> counted = new ArrayList<>(inForce.size());
        List<CounterRequest> counters = new ArrayList<>(inForce.size());
        for (LimitDefinition limit : inForce) {
            String identity = request.identity(limit);
            if (identity == null) {
                outcome(context, limit.id(), Outcome.SKIPPED);
                continue;
            }
            limit = rules.forClient(limit, identity, rules.resolvesPlans(limit) ? request.plan(limit) : null, clock);
            long cost = request.cost(limit);
            if (cost > limit.count()) {
                // Before anything is counted: a request no wait would let through takes nothing. A limit in
                // shadow mode only says it would have refused.
                if (rules.anyShadow() && rules.shadow(limit)) {
                    outcome(context, limit.id(), Outcome.SHADOW_BLOCKED);
                    continue;
                }
                outcome(context, limit.id(), Outcome.BLOCKED);
                return Verdict.tooCostly(limit, cost);
            }
            counted.add(limit);
            counters.add(counter(rules, limit, identity, cost, limit.isConcurrency() ? leases.newId() : null));
        }
        if (counters.isEmpty()) {
            return Verdict.PASS;
        }
        long sentAt = System.nanoTime();
        StoreResult result = acquire(counters, sentAt);
        if (result instanceof StoreResult.NotDecided notDecided) {
            counted.forEach(limit -> outcome(context, limit.id(), Outcome.ERROR));
            context.failed(notDecided.reason(), notDecided.refuse());
            return notDecided.refuse() ? Verdict.refuse(notDecided.retryAfter()) : Verdict.PASS;
        }
        return enforce(request, rules, counted, counters, ((StoreResult.Decided) result).decisions(), sentAt, context);
    }

    /**
     * The entry that denies the request, or {@code null}: its client address, its user (the one counted and the
     * one the server established, so that a signed-in user cannot escape by sending another user code), or
     * the identity of a CUSTOM limit of its endpoint. Each is resolved only when the list holds its kind.
     */
    private DenyList.@Nullable Entry denial(DenyList denyList, LimitedRequest request, List<LimitDefinition> inForce) {
        DenyList.Entry entry = denyList.hasAddresses() ? denyList.address(request.clientIp(), clock) : null;
        if (entry == null && denyList.hasUsers()) {
            entry = denyList.user(request.user(), clock);
            if (entry == null) {
                entry = denyList.user(request.verifiedUser(), clock);
            }
        }
        if (entry == null && denyList.hasKeys()) {
            for (LimitDefinition limit : inForce) {
                if (limit.dimension() == Dimension.CUSTOM && (entry = denyList.key(request.identity(limit), clock)) != null) {
                    break;
                }
            }
        }
        return entry;
    }

    /** Meters and logs a refusal of the deny list; no limit counted the request, and shadow mode does not apply. */
    private Verdict deny(LimitedRequest request, RuleSnapshot snapshot, DenyList.Entry denial, VerdictContext context) {
        RuleId rule = Objects.requireNonNull(denyRules.get(denial.kind()), "every kind has its rule");
        outcome(context, rule, Outcome.DENIED);
        Instant now = clock.instant();
        if (snapshot.logCheck()) {
            interceptionLog.record(new Interception(now, rule, request.user(), request.clientIp(),
                    request.httpMethod(), request.uri(), denial.kind().dimension(), 0, 0, false,
                    Interception.Reason.DENY));
        }
        return Verdict.deny(denial, Duration.ofMillis(denial.millisLeft(now)));
    }

    /** What one limit (or the deny list) did with the request: metered, and told to the decision's observation. */
    private void outcome(VerdictContext context, RuleId rule, Outcome outcome) {
        metrics.outcome(rule, outcome);
        context.outcome(rule, outcome);
    }

    private StoreResult acquire(List<CounterRequest> counters, long sentAt) {
        try {
            return store.acquire(counters);
        } catch (RuntimeException e) {
            failures.warn(e);
            return StoreResult.NotDecided.pass(e.toString());
        } finally {
            metrics.decided(System.nanoTime() - sentAt);
        }
    }

    /**
     * Meters and logs every decision, and finds the verdict of the enforced limits.
     *
     * @param sentAt when the counters were sent to the store: when a lease taken was last renewed, at the latest
     */
    private Verdict enforce(LimitedRequest request, RulesInForce rules, List<LimitDefinition> counted,
                            List<CounterRequest> counters, List<Decision> decisions, long sentAt,
                            VerdictContext context) {
        RuleSnapshot snapshot = rules.snapshot();
        boolean anyShadow = rules.anyShadow();
        List<LimitDefinition> enforcedLimits = anyShadow ? new ArrayList<>(counted.size()) : counted;
        List<Decision> enforcedDecisions = anyShadow ? new ArrayList<>(counted.size()) : decisions;
        List<Reservation> reservations = List.of();
        for (int i = 0; i < counted.size(); i++) {
            LimitDefinition limit = counted.get(i);
            boolean shadow = anyShadow && rules.shadow(limit);
            metrics.counted(limit, counters.get(i).key(), decisions.get(i));
            if (decisions.get(i).allowed()) {
                outcome(context, limit.id(), Outcome.ALLOWED);
                if (limit.reserves()) {
                    if (reservations.isEmpty()) {
                        reservations = new ArrayList<>(counted.size());
                    }
                    reservations.add(Reservation.of(limit, refund(limit, counters.get(i), decisions.get(i))));
                    if (limit.isConcurrency()) {
                        leases.taken(limit.id(), counters.get(i), sentAt);
                    }
                }
            } else if (shadow) {
                outcome(context, limit.id(), Outcome.SHADOW_BLOCKED);
                log(request, snapshot, limit, true);
            } else {
                outcome(context, limit.id(), Outcome.BLOCKED);
                metrics.denied(limit, counters.get(i).key(), decisions.get(i).retryAfterMillis());
            }
            if (anyShadow && !shadow) {
                // A limit that only watches stays invisible to clients: no rate limit fields, no rejection.
                enforcedLimits.add(limit);
                enforcedDecisions.add(decisions.get(i));
            }
        }
        if (enforcedLimits.isEmpty()) {
            return reservations.isEmpty() ? Verdict.PASS
                    : new Verdict(Verdict.Kind.PASS, List.of(), List.of(), -1, Duration.ZERO, reservations, 0);
        }
        int denying = mostRestrictiveDenial(enforcedDecisions);
        if (denying < 0) {
            return new Verdict(Verdict.Kind.ADMIT, enforcedLimits, enforcedDecisions,
                    closestToLimit(enforcedLimits, enforcedDecisions), Duration.ZERO, reservations, 0);
        }
        log(request, snapshot, enforcedLimits.get(denying), false);
        // A rejected request never runs, so no response of its can count: what it took goes back now.
        complete(reservations, Completion.NEVER_RAN);
        return new Verdict(Verdict.Kind.REJECT, enforcedLimits, enforcedDecisions, denying, Duration.ZERO, List.of(), 0);
    }

    /**
     * What the client of {@code identity} has left of {@code limit} now, for a request of one unit,
     * counting nothing (see {@link RateLimitStore#peek}).
     */
    public StoreResult peek(LimitDefinition limit, String identity) {
        try {
            return store.peek(List.of(counter(catalog.current(), limit, identity, 1, null)));
        } catch (RuntimeException e) {
            failures.warn(e);
            return StoreResult.NotDecided.pass(e.toString());
        }
    }

    /**
     * What gives the request back if its response does not match {@code countWhen}: for a fixed window, whose
     * refund is told again to the window's next requests, the counts it undid leave the limit advisor's demand.
     */
    private Refund refund(LimitDefinition limit, CounterRequest counter, Decision decision) {
        if (limit.algorithm() != Algorithm.FIXED_WINDOW || limit.settlesCost()) {
            return new Refund(counter, decision.decidedAt());
        }
        return new Refund(counter, decision.decidedAt(),
                (above, upTo) -> metrics.refunded(limit, counter.key(), above, upTo));
    }

    /** @param lease the id of the lease a concurrency limit's request takes; else, and for a peek, {@code null} */
    private CounterRequest counter(RulesInForce rules, LimitDefinition limit, String identity, long cost,
                                   @Nullable String lease) {
        boolean batchable = rules.batchable(limit) && !excludedFromBatches.contains(limit.id());
        return new CounterRequest(keys.counter(limit, identity),
                limit.algorithm(), limit.count(), limit.windowSeconds() * 1000, cost, limit.countsSome(),
                limit.penalty(), quotaPeriods.around(limit.quota()), lease, limit.settlesCost(), null, batchable);
    }

    /**
     * Ends a request that went on, as its completion says: the units of its reservations whose
     * {@code countWhen} it does not match go back, its leases are released whatever it says, and its
     * estimates are settled at what it says the request used (given back or charged, past the limit if need
     * be). On a limit with a penalty, where the store holds such units pending until they are settled, a
     * response that keeps them all counted confirms them, so that a denial they cause is final. Call it once
     * per request. Never throws: a refund or a settlement that cannot be made leaves the request counted as it
     * was (its units pending until their window ends), and a lease not released expires.
     */
    public void complete(List<Reservation> reservations, Completion completion) {
        if (reservations.isEmpty()) {
            return;
        }
        List<Refund> refunds = new ArrayList<>(reservations.size());
        List<Settlement> settlements = new ArrayList<>(0);
        for (Reservation reservation : reservations) {
            Refund taken = reservation.refund();
            switch (reservation.kind()) {
                case LEASE -> {
                    leases.released(taken.request());
                    refunds.add(taken);
                }
                case COUNT_WHEN -> {
                    if (!completion.counts(reservation.expression())) {
                        refunds.add(taken);
                    } else if (taken.request().holdsPendingUnits()) {
                        settlements.add(new Settlement(taken.request(), taken.reservedAt(), taken.request().cost()));
                    }
                }
                case ESTIMATE -> {
                    Long used = completion.cost(reservation.expression());
                    long units = used == null ? taken.request().cost() : Math.min(used, mostCharged(taken.request()));
                    if (units != taken.request().cost() || taken.request().holdsPendingUnits()) {
                        settlements.add(new Settlement(taken.request(), taken.reservedAt(), units));
                    }
                }
            }
        }
        try {
            if (!refunds.isEmpty()) {
                store.refund(refunds);
            }
            if (!settlements.isEmpty()) {
                store.settle(settlements);
            }
        } catch (RuntimeException e) {
            failures.warn(e);
        }
    }

    /**
     * The most one response may say it used: what its limit pays off in a year (at least one window's
     * count), so that every debt ends, and within what keeps the scripts' arithmetic exact.
     */
    private static long mostCharged(CounterRequest request) {
        long windowsInAYear = Math.max(1, LimitDefinition.MAX_WINDOW_SECONDS * 1000 / request.windowMillis());
        long exact = LimitDefinition.MAX_COUNT_TIMES_WINDOW_MILLIS / request.windowMillis();
        return request.count() > exact / windowsInAYear ? exact : request.count() * windowsInAYear;
    }

    private boolean whitelisted(LimitedRequest request, Whitelist configured) {
        if (whitelist.isEmpty() && configured.isEmpty()) {
            return false;
        }
        if (!whitelist.ips().isEmpty() || !configured.ips().isEmpty()) {
            String ip = request.clientIp();
            if (whitelist.containsIp(ip) || configured.containsIp(ip)) {
                return true;
            }
        }
        if (!whitelist.users().isEmpty() || !configured.users().isEmpty()) {
            String user = request.verifiedUser();
            return whitelist.containsUser(user) || configured.containsUser(user);
        }
        return false;
    }

    private void log(LimitedRequest request, RuleSnapshot snapshot, LimitDefinition limit, boolean shadow) {
        if (snapshot.logCheck()) {
            interceptionLog.record(new Interception(clock.instant(), limit.id(), request.user(),
                    request.clientIp(), request.httpMethod(), request.uri(), limit.dimension(), limit.count(),
                    limit.windowSeconds(), shadow));
        }
    }

    /** The denial that lasts longest, or -1 when every limit allows. */
    private static int mostRestrictiveDenial(List<Decision> decisions) {
        int worst = -1;
        for (int i = 0; i < decisions.size(); i++) {
            Decision decision = decisions.get(i);
            if (!decision.allowed()
                    && (worst < 0 || decision.retryAfterMillis() > decisions.get(worst).retryAfterMillis())) {
                worst = i;
            }
        }
        return worst;
    }

    /**
     * The limit with the fewest requests left; among equals, the one that takes longest to come back. A
     * concurrency limit, which the rate limit fields do not describe, only when there is no other.
     */
    private static int closestToLimit(List<LimitDefinition> limits, List<Decision> decisions) {
        int closest = -1;
        for (int i = 0; i < decisions.size(); i++) {
            if (limits.get(i).isConcurrency()) {
                continue;
            }
            Decision decision = decisions.get(i);
            Decision best = closest < 0 ? null : decisions.get(closest);
            if (best == null || decision.remaining() < best.remaining()
                    || (decision.remaining() == best.remaining()
                        && decision.resetOrRetryMillis() > best.resetOrRetryMillis())) {
                closest = i;
            }
        }
        return Math.max(closest, 0);
    }
}
