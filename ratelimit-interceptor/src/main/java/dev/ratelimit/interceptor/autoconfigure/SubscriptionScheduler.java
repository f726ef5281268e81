package dev.ratelimit.interceptor.autoconfigure;

import java.util.concurrent.ScheduledThreadPoolExecutor;
import org.springframework.beans.factory.DisposableBean;

/**
 * The one thread of the config-change subscription: it hands each announcement on and schedules the
 * container's reconnect attempts. A scheduler, because without one Spring's container retries a
 * failed subscription on the calling thread while holding its lock, and an app stopping while Redis
 * is away then waits on that lock for ever. The container shuts it down when it stops.
 */
final class SubscriptionScheduler extends ScheduledThreadPoolExecutor implements DisposableBean {

    SubscriptionScheduler() {
        super(1, runnable -> {
            Thread thread = new Thread(runnable, "ratelimit-config-subscription");
            thread.setDaemon(true);
            return thread;
        });
    }

    @Override
    public void destroy() {
        shutdownNow();
    }
}
