package dev.ratelimit.interceptor.lifecycle;

import dev.ratelimit.interceptor.testsupport.RedisServerProcess;
import dev.ratelimit.interceptor.testsupport.SleepingRedis;
import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;

/**
 * What the app's Redis (a real redis-server) does over the app's life: from before the app starts, and
 * from when it serves, until after it stopped. A new way for Redis to misbehave is one more value here,
 * and every test over the values covers it.
 */
enum RedisState {

    /** Answers at once throughout: what the others are compared with. */
    HEALTHY,

    /** Nothing listens on its port, from before the app starts. */
    ABSENT {
        @Override
        AutoCloseable beforeStart(RedisServerProcess redis) {
            redis.stop();
            return NOTHING;
        }

        /** The connection's, which says what is degraded; not one per part of the limiter. */
        @Override
        OptionalInt warningsAtStart() {
            return OptionalInt.of(1);
        }
    },

    /** Stops ({@code SIGSTOP}) once the app serves: the connections stay open and nothing comes back. */
    HUNG {
        @Override
        void whileServing(RedisServerProcess redis) {
            redis.pause();
        }
    },

    /** Stopped ({@code SIGSTOP}) from before the app starts: connections are accepted (by the kernel), nothing answers. */
    HUNG_FROM_START {
        @Override
        AutoCloseable beforeStart(RedisServerProcess redis) {
            redis.pause();
            return NOTHING;
        }
    },

    /** Killed once the app serves, as a crash or an OOM kill ends it. */
    GONE {
        @Override
        void whileServing(RedisServerProcess redis) {
            redis.stop();
        }
    },

    /**
     * Answers, but every command may wait up to {@link #SLOW_COMMAND} (twice the limiter's timeout) while
     * Redis sleeps, from before the app starts.
     */
    SLOW {
        @Override
        List<String> serverOptions() {
            return SleepingRedis.SERVER_OPTIONS;
        }

        @Override
        AutoCloseable beforeStart(RedisServerProcess redis) {
            return SleepingRedis.start(redis.port(), SLOW_COMMAND);
        }
    };

    static final Duration SLOW_COMMAND = Duration.ofMillis(500);
    private static final AutoCloseable NOTHING = () -> { };

    /** How many warnings the limiter logs until the app has started, where this state decides it. */
    OptionalInt warningsAtStart() {
        return OptionalInt.empty();
    }

    /** The redis-server's command line options this state needs. */
    List<String> serverOptions() {
        return List.of();
    }

    /** Puts Redis in this state before the app starts; what is returned ends it after the app stopped. */
    AutoCloseable beforeStart(RedisServerProcess redis) {
        return NOTHING;
    }

    /** Puts Redis in this state once the app serves, before its endpoints are asked and it is stopped. */
    void whileServing(RedisServerProcess redis) {
    }
}
