package dev.ratelimit.interceptor.internal.lease;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.rule.RuleId;
import dev.ratelimit.interceptor.store.CounterRequest;
import dev.ratelimit.interceptor.store.Penalty;
import dev.ratelimit.interceptor.testsupport.ShippedDefaults;
import java.time.Duration;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Which leases are renewed when, on a clock the test gives: a third of a lease apart, for at most the longest hold. */
class HeldLeasesTest {

    private static final RuleId RULE = RuleId.of("shop", "ExportController.export");
    private static final long SECOND = 1_000_000_000L;

    private final HeldLeases leases = new HeldLeases(ShippedDefaults.LEASE_MAX_HOLD);

    @Test
    void aLeaseIsDueOnceAThirdOfItHasPassedSinceItWasTakenOrRenewed() {
        CounterRequest lease = lease(10_000);
        leases.taken(RULE, lease, 0);

        assertThat(leases.due(3 * SECOND)).as("3 s of 10").isEmpty();
        assertThat(leases.due(3_334_000_000L)).as("past a third").containsExactly(lease);
        assertThat(leases.due(6 * SECOND)).as("renewed 2.7 s ago").isEmpty();
        assertThat(leases.due(6_668_000_000L)).containsExactly(lease);
    }

    @Test
    void aReleasedLeaseIsNeverDue() {
        CounterRequest lease = lease(10_000);
        leases.taken(RULE, lease, 0);
        leases.released(lease);

        assertThat(leases.due(5 * SECOND)).isEmpty();
        assertThat(leases.size()).isZero();
    }

    @Test
    void aLeaseHeldForTheLongestHoldIsNoLongerRenewed() {
        CounterRequest lease = lease(10_000);
        leases.taken(RULE, lease, 0);
        long maxHold = ShippedDefaults.LEASE_MAX_HOLD.toNanos();

        assertThat(leases.due(maxHold - 1)).containsExactly(lease);
        assertThat(leases.due(maxHold)).isEmpty();
        assertThat(leases.size()).isZero();
        assertThat(leases.describe()).containsEntry("heldTooLong", 1L).containsEntry("renewals", 1L);
    }

    @Test
    void idsAreUniqueAndNameTheInstance() {
        assertThat(IntStream.range(0, 1_000).mapToObj(i -> leases.newId()).distinct()).hasSize(1_000)
                .allSatisfy(id -> assertThat(id).startsWith(leases.describe().get("instance") + ":"));
    }

    @Test
    void theActuatorSeesTheLeasesHeldByRule() {
        leases.taken(RULE, lease(10_000), 0);
        leases.taken(RULE, lease(10_000), 0);
        leases.taken(RuleId.of("shop", "Reports.run"), lease(5_000), 0);

        assertThat(leases.describe()).containsEntry("held", 3L)
                .containsEntry("heldByRule", Map.of("shop.ExportController.export", 2L, "shop.Reports.run", 1L))
                .containsEntry("maxHold", Duration.ofMinutes(10).toString());
    }

    private CounterRequest lease(long leaseMillis) {
        return CounterRequest.lease("ratelimit:counter:shop:export:USER@CONCURRENCY:ann", 2, leaseMillis, Penalty.NONE,
                leases.newId());
    }
}
