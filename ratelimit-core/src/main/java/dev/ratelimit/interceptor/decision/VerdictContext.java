package dev.ratelimit.interceptor.decision;

import dev.ratelimit.interceptor.metrics.Outcome;
import dev.ratelimit.interceptor.rule.RuleId;
import io.micrometer.observation.Observation;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One decision of the limiter, as its {@link VerdictObservation} sees it: the module and the store that
 * decided and, once it is made, the outcome that says most about it (a denial over a
 * rejection over a failure over a shadow rejection over an admission over a skip) with the rule behind it.
 * Never the client's identity: a trace is no place for who the client is.
 */
public final class VerdictContext extends Observation.Context {

    /** The outcomes in the order of what they say about a request, the least first. */
    private static final List<Outcome> WEIGHT = List.of(Outcome.SKIPPED, Outcome.ALLOWED, Outcome.SHADOW_BLOCKED,
            Outcome.ERROR, Outcome.BLOCKED, Outcome.DENIED);

    private final String module;
    private final String store;
    private Outcome outcome = Outcome.SKIPPED;
    private @Nullable RuleId rule;
    private @Nullable String failure;
    private boolean refusedByFailurePolicy;

    VerdictContext(String module, String store) {
        this.module = module;
        this.store = store;
    }

    public String module() {
        return module;
    }

    /** The kind of store that decided: {@code redis}, {@code memory} or an app's own store's class. */
    public String store() {
        return store;
    }

    /** What the decision did: the weightiest of the outcomes of its limits; {@code SKIPPED} when none counted. */
    public Outcome outcome() {
        return outcome;
    }

    /** The rule of {@link #outcome()}; {@code null} when no limit applied. */
    public @Nullable RuleId rule() {
        return rule;
    }

    /** Why the store could not decide, when it could not; else {@code null}. */
    public @Nullable String failure() {
        return failure;
    }

    /** Whether the request was refused, by a limit, the deny list or the failure policy. */
    public boolean refused() {
        return outcome == Outcome.BLOCKED || outcome == Outcome.DENIED || refusedByFailurePolicy;
    }

    void outcome(RuleId rule, Outcome outcome) {
        if (this.rule == null || WEIGHT.indexOf(outcome) > WEIGHT.indexOf(this.outcome)) {
            this.outcome = outcome;
            this.rule = rule;
        }
    }

    void failed(String reason, boolean refused) {
        this.failure = reason;
        this.refusedByFailurePolicy = refused;
    }
}
