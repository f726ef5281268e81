package dev.ratelimit.interceptor.internal.store.resilience;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.InitializingBean;

/**
 * Tries Redis in the background while the circuit is open, every {@code interval}, and closes the
 * circuit on the first answer. No request thread ever waits for a probe.
 */
public class CircuitProbe implements InitializingBean, DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(CircuitProbe.class);

    private final CircuitBreaker circuit;
    private final BooleanSupplier probe;
    private final Duration interval;
    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "ratelimit-circuit-probe");
        thread.setDaemon(true);
        return thread;
    });

    /** @param probe one small call to Redis: whether Redis answered */
    public CircuitProbe(CircuitBreaker circuit, BooleanSupplier probe, Duration interval) {
        this.circuit = circuit;
        this.probe = probe;
        this.interval = interval;
    }

    @Override
    public void afterPropertiesSet() {
        long millis = interval.toMillis();
        scheduler.scheduleWithFixedDelay(this::probeIfOpen, millis, millis, TimeUnit.MILLISECONDS);
    }

    /** One probe, when the circuit is open. */
    void probeIfOpen() {
        if (circuit.isClosed()) {
            return;
        }
        if (probe.getAsBoolean()) {
            circuit.probeSucceeded();
        } else {
            log.debug("Rate limit store: Redis still does not answer");
        }
    }

    @Override
    public void destroy() {
        scheduler.shutdownNow();
    }
}
