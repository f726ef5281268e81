package dev.ratelimit.interceptor.config;

import io.lettuce.core.pubsub.RedisPubSubAdapter;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Refreshes the rule snapshot when a change is announced on {@code {p}:config-changed}, and runs
 * {@code onChange} first (the near cache forgets its denials: a change may have freed a client). It does
 * both also each time the subscription is made again after a lost connection, because announcements
 * sent while it was gone are not replayed. An announced reset of a counter (an operator's unblock) also
 * goes to {@code onCounterReset}, for counters kept in the process, which the reset in Redis does not reach.
 */
public class ConfigChangeListener extends RedisPubSubAdapter<String, String> {

    private static final Logger log = LoggerFactory.getLogger(ConfigChangeListener.class);

    private final RuleSnapshotHolder snapshots;
    private final Runnable onChange;
    private final Consumer<String> onCounterReset;

    /** @param onCounterReset takes the key of each counter whose reset is announced */
    public ConfigChangeListener(RuleSnapshotHolder snapshots, Runnable onChange, Consumer<String> onCounterReset) {
        this.snapshots = snapshots;
        this.onChange = onChange;
        this.onCounterReset = onCounterReset;
    }

    @Override
    public void message(String channel, String body) {
        if (body.startsWith(SysConfigRepository.RESET_ANNOUNCEMENT)) {
            onCounterReset.accept(body.substring(SysConfigRepository.RESET_ANNOUNCEMENT.length()));
        }
        hashChanged();
    }

    @Override
    public void subscribed(String channel, long count) {
        log.info("Listening for rate limit config changes on {}", channel);
        hashChanged();
    }

    /** The hash may have changed (announced, or reported by {@link dev.ratelimit.interceptor.internal.config.ConfigHashTracking}): re-read it soon. */
    public void hashChanged() {
        onChange.run();
        snapshots.refreshSoon();
    }
}
