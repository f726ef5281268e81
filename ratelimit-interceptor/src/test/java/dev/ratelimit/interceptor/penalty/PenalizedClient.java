package dev.ratelimit.interceptor.penalty;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.Allowance;
import dev.ratelimit.interceptor.RateLimitExceededException;
import dev.ratelimit.interceptor.RateLimitService;
import dev.ratelimit.interceptor.config.RuleCatalog;
import dev.ratelimit.interceptor.config.RuleDescription;
import dev.ratelimit.interceptor.config.SysConfigEditor;
import dev.ratelimit.interceptor.fixture.FixtureApplication;
import dev.ratelimit.interceptor.rule.LimitDefinition;
import dev.ratelimit.interceptor.rule.RuleId;
import dev.ratelimit.interceptor.store.RateLimitStore;
import dev.ratelimit.interceptor.testsupport.GatedBurst;
import dev.ratelimit.interceptor.testsupport.HttpProbe;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Predicate;
import org.awaitility.Awaitility;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * One client of one kind of limit on one algorithm ({@link PenaltyMatrixContract}), its attempts spread over
 * the instances: requests, calls of a bean method, or calls counted in code, each honest (a successful login, a
 * response that used nothing of its estimate) or counted. It reads its limit as the first instance applies
 * it, its penalty included.
 */
final class PenalizedClient {

    /** The count of the matrix's plan and exceptions, above the declared one. */
    private static final int OWN_COUNT = 6;
    private static final String PLAN = "gold";
    private static final Duration SETTLES = Duration.ofSeconds(10);

    private final List<ConfigurableApplicationContext> apps;
    private final List<HttpProbe> probes;
    private final LimitKind kind;
    private final Algorithm algorithm;
    private final RuleId rule;
    private final LimitDefinition limit;
    private final String user;
    private final long count;

    PenalizedClient(List<ConfigurableApplicationContext> apps, LimitKind kind, Algorithm algorithm) {
        this.apps = List.copyOf(apps);
        this.probes = apps.stream().map(app -> new HttpProbe(FixtureApplication.port(app))).toList();
        this.kind = kind;
        this.algorithm = algorithm;
        this.rule = RuleId.of("fixture", "penalty-" + kind.fixture() + "-" + algorithm);
        this.user = (kind + "-" + algorithm.ordinal() + "-" + System.nanoTime()).toLowerCase(Locale.ROOT).replace('_', '-');
        RuleCatalog catalog = apps.get(0).getBean(RuleCatalog.class);
        this.limit = catalog.current().limit(rule).orElseThrow(() -> new AssertionError("no fixture declares " + rule
                + ": every kind of limit needs one on every algorithm it takes"));
        RuleDescription description = catalog.current().rule(rule).orElseThrow();
        assertThat(description.kind()).as("what counts %s", rule).isEqualTo(kind.endpoint());
        assertThat(limit.algorithm()).isEqualTo(algorithm);
        assertThat(limit.penalty().applies()).as("%s has a penalty", rule).isTrue();
        assertThat(kind.describes(limit)).as("%s is a limit of kind %s", rule, kind).isTrue();
        this.count = kind == LimitKind.PLAN || kind == LimitKind.EXCEPTION ? OWN_COUNT : limit.count();
        giveTheClientItsOwnCount(description);
    }

    /** The penalty, in whole seconds as {@code Retry-After} says it. */
    long penaltySeconds() {
        return limit.penalty().firstBlockMillis() / 1000;
    }

    /** Whether the limit keeps what a request took pending until its end settles it: its units, or its lease. */
    boolean reserves() {
        return limit.reserves();
    }

    boolean concurrency() {
        return limit.isConcurrency();
    }

    /** Whether the units a request takes stay pending until its response settles them. */
    boolean pending() {
        return limit.countsSome() || limit.settlesCost();
    }

    /**
     * The units of honest attempts that fit the count exactly, whatever their order: a fixed cost's, a cost
     * expression's of one and two units; of a limit whose units stay pending, as many as fit at once.
     */
    List<Long> honestUnits() {
        long cost = limit.cost().isExpression() ? 1 : limit.cost().fixed();
        List<Long> units = new ArrayList<>();
        long left = count;
        while (left > 0) {
            long next = limit.cost().isExpression() ? Math.min(left, units.size() % 2 + 1) : cost;
            units.add(next);
            left -= next;
        }
        return units;
    }

    /** A burst of attempts held at the gate of {@code run} while they run, spread over the instances. */
    GatedBurst.Held<Attempt> burst(List<Long> units, boolean counted, String run) throws Exception {
        return GatedBurst.hold(units.size(), run, i -> attempt(i, counted, units.get(i), run), Attempt::admitted);
    }

    /** One attempt on instance {@code i} (modulo their number), of {@code units} where the kind lets it choose. */
    Attempt attempt(int i, boolean counted, long units, String run) {
        int instance = i % apps.size();
        return switch (kind.endpoint()) {
            case HTTP -> request(probes.get(instance), counted, units, run);
            case METHOD -> call(() -> PenalizedCalls.call(apps.get(instance).getBean(PenalizedCalls.class), algorithm,
                    user, !counted, run));
            case CODE -> call(() -> {
                apps.get(instance).getBean(RateLimitService.class).acquire(rule, user, Duration.ZERO);
                return true;
            });
        };
    }

    /** What the store tells of the client now, counting nothing: whether a block holds it, and until when. */
    Optional<Allowance> peek() {
        return apps.get(0).getBean(RateLimitService.class).peek(rule, user);
    }

    /**
     * Waits until Redis has answered {@code settles} more refunds, settlements and releases on the instances than
     * {@code before} (sent once each request's response is written); the in-process store settles at once.
     */
    void awaitSettled(long before, long settles) {
        Awaitility.await("what the requests of " + rule + " took settled").atMost(SETTLES)
                .until(() -> before < 0 || settlesAnswered() >= before + settles);
    }

    /** The refunds, settlements and releases Redis answered on every instance, or -1 on the in-process store. */
    long settlesAnswered() {
        long sum = 0;
        for (ConfigurableApplicationContext app : apps) {
            Object refunds = app.getBean(RateLimitStore.class).describe().details().get("refundsAnswered");
            Object settlements = app.getBean(RateLimitStore.class).describe().details().get("settlementsAnswered");
            if (!(refunds instanceof Long refunded) || !(settlements instanceof Long settled)) {
                return -1;
            }
            sum += refunded + settled;
        }
        return sum;
    }

    private Attempt request(HttpProbe probe, boolean counted, long units, String run) {
        StringBuilder path = new StringBuilder("/penalty/").append(kind.fixture()).append('/').append(algorithm)
                .append("?usercode=").append(user);
        if (run != null) {
            path.append("&run=").append(run);
        }
        switch (kind) {
            case COUNT_WHEN -> path.append("&ok=").append(!counted);
            case COST_EXPRESSION -> path.append("&items=").append("x,".repeat((int) units - 1)).append('x');
            case COST_FROM_RESPONSE -> path.append("&units=").append(counted ? limit.cost().fixed() : 0);
            default -> { }
        }
        HttpResponse<String> response = kind == LimitKind.PLAN ? probe.get(path.toString(), "X-Plan", PLAN)
                : probe.get(path.toString());
        assertThat(response.statusCode()).as("%s", path).isIn(200, 401, 429);
        return response.statusCode() != 429 ? Attempt.ADMITTED
                : new Attempt(false, Long.parseLong(response.headers().firstValue("Retry-After").orElseThrow()));
    }

    private static Attempt call(Call call) {
        try {
            call.run();
            return Attempt.ADMITTED;
        } catch (RateLimitExceededException refused) {
            return new Attempt(false, (refused.retryAfter().toMillis() + 999) / 1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** A plan's or an exception's count, set in the config hash, in force on every instance. */
    private void giveTheClientItsOwnCount(RuleDescription description) {
        SysConfigEditor editor = apps.get(0).getBean(SysConfigEditor.class);
        // A concurrency limit's window is its lease.
        String own = OWN_COUNT + "/" + (limit.isConcurrency() ? limit.windowSeconds() : PenalizedController.WINDOW);
        Predicate<RuleDescription> inForce;
        if (kind == LimitKind.PLAN) {
            editor.setPlanLimit(rule, PLAN, own);
            inForce = rule -> rule.plans().containsKey(PLAN);
        } else if (kind == LimitKind.EXCEPTION) {
            editor.setException(rule, user, own, Instant.now().plus(Duration.ofHours(1)));
            inForce = rule -> rule.exceptions().containsKey(user);
        } else {
            return;
        }
        Awaitility.await("every instance has the count of " + user).atMost(SETTLES).until(() -> apps.stream()
                .allMatch(app -> app.getBean(RuleCatalog.class).current().rule(description.id()).filter(inForce).isPresent()));
    }

    /** A call of a limited method, or of {@code RateLimitService}. */
    @FunctionalInterface
    private interface Call {
        boolean run() throws InterruptedException;
    }

    /**
     * @param admitted          whether it got in (a counted login answered 401 got in)
     * @param retryAfterSeconds for a refusal, the wait it was told, in whole seconds rounded up
     */
    record Attempt(boolean admitted, long retryAfterSeconds) {

        static final Attempt ADMITTED = new Attempt(true, 0);
    }
}
