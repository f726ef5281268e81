package dev.ratelimit.interceptor.config;

import java.nio.charset.StandardCharsets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.data.redis.connection.Message;
import org.springframework.data.redis.connection.MessageListener;
import org.springframework.data.redis.connection.SubscriptionListener;

/**
 * Refreshes the rule snapshot when a change is announced on {@code {p}:config-changed}, and runs
 * {@code onChange} first (the near cache forgets its denials: a change may have freed a client). It does
 * both also each time the subscription is made again after a lost connection, because announcements
 * sent while it was gone are not replayed.
 */
public class ConfigChangeListener implements MessageListener, SubscriptionListener {

    private static final Logger log = LoggerFactory.getLogger(ConfigChangeListener.class);

    private final RuleSnapshotHolder snapshots;
    private final Runnable onChange;

    public ConfigChangeListener(RuleSnapshotHolder snapshots, Runnable onChange) {
        this.snapshots = snapshots;
        this.onChange = onChange;
    }

    @Override
    public void onMessage(Message message, byte[] pattern) {
        onChange.run();
        snapshots.refreshSoon();
    }

    @Override
    public void onChannelSubscribed(byte[] channel, long count) {
        log.info("Listening for rate limit config changes on {}", new String(channel, StandardCharsets.UTF_8));
        onChange.run();
        snapshots.refreshSoon();
    }
}
