package dev.ratelimit.guest;

import dev.ratelimit.interceptor.testsupport.RedisServerProcess;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * Where Redis is, for the whole test run, told the way an app's deployment tells it (system properties): a
 * redis-server of the run's own when {@code hostapp.redis=running}, a closed port when {@code away}. The app's
 * suite itself knows nothing of it; nothing else about the limiter is configured.
 */
public class RedisForTheApp implements LauncherSessionListener {

    static final String MODE = "hostapp.redis";

    private RedisServerProcess redis;

    @Override
    public void launcherSessionOpened(LauncherSession session) {
        int port = switch (System.getProperty(MODE, "")) {
            case "running" -> {
                redis = RedisServerProcess.start();
                yield redis.port();
            }
            case "away" -> RedisServerProcess.freePort();
            default -> throw new IllegalStateException("Set " + MODE + " to running or away");
        };
        System.setProperty("spring.data.redis.port", Integer.toString(port));
        System.setProperty("ratelimit.redis.url", "redis://localhost:" + port);
    }

    @Override
    public void launcherSessionClosed(LauncherSession session) {
        if (redis != null) {
            redis.close();
        }
    }
}
