package dev.ratelimit.interceptor.decision;

import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Logs failures of an app's own store (ours answer instead of throwing) at most once per period, with the count of those not logged, so an outage does not flood the log. */
final class FailureWarnings {

    private static final Logger log = LoggerFactory.getLogger(FailureWarnings.class);
    private static final long PERIOD_NANOS = 30_000_000_000L;

    private final AtomicLong nextWarning = new AtomicLong(System.nanoTime());
    private final AtomicLong suppressed = new AtomicLong();

    void warn(RuntimeException error) {
        long now = System.nanoTime();
        long next = nextWarning.get();
        if (now - next >= 0 && nextWarning.compareAndSet(next, now + PERIOD_NANOS)) {
            log.warn("Rate limit store failed; letting requests pass ({} more failures since the last warning): {}",
                    suppressed.getAndSet(0), error.toString());
        } else {
            suppressed.incrementAndGet();
        }
    }
}
