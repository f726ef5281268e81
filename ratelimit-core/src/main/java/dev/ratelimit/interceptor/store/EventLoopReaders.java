package dev.ratelimit.interceptor.store;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.resource.EventLoopGroupProvider;
import io.lettuce.core.resource.Transports;
import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.EventExecutor;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The event loops of a Lettuce client, where its replies are read and its futures completed: each is
 * handed a task that notes when it ran, one at a time, so a thousand waiting requests cost each loop
 * one task per slice. Every loop of the client's group is watched, since which one serves which
 * connection is Lettuce's to know; an idle loop runs its task at once.
 */
final class EventLoopReaders implements ReplyReaders {

    private static final Logger log = LoggerFactory.getLogger(EventLoopReaders.class);

    private final EventLoopGroupProvider provider;
    private final EventLoopGroup group;
    private final List<Reader> readers = new ArrayList<>();

    private EventLoopReaders(EventLoopGroupProvider provider, EventLoopGroup group) {
        this.provider = provider;
        this.group = group;
        group.forEach(loop -> readers.add(new Reader(loop)));
    }

    /** The readers of a client that has connected, or {@link ReplyReaders#UNWATCHED} if they cannot be had. */
    static ReplyReaders of(AbstractRedisClient client) {
        try {
            EventLoopGroupProvider provider = client.getResources().eventLoopGroupProvider();
            return new EventLoopReaders(provider, provider.allocate(Transports.eventLoopGroupClass()));
        } catch (RuntimeException e) {
            log.debug("Rate limiter: the threads that read Redis' replies cannot be watched: {}", e.toString());
            return UNWATCHED;
        }
    }

    @Override
    public void check() {
        readers.forEach(Reader::check);
    }

    @Override
    public boolean ranSince(long nanoTime) {
        for (Reader reader : readers) {
            if (reader.ranAt - nanoTime < 0) {
                return false;
            }
        }
        return true;
    }

    /** Gives back this watch's hold on the group, which Lettuce counts. */
    @Override
    public void close() {
        provider.release(group, 0, 2, TimeUnit.SECONDS);
    }

    private static final class Reader implements Runnable {

        private final EventExecutor loop;
        private final AtomicBoolean asked = new AtomicBoolean();
        private volatile long ranAt = System.nanoTime();

        Reader(EventExecutor loop) {
            this.loop = loop;
        }

        void check() {
            if (asked.compareAndSet(false, true)) {
                try {
                    loop.execute(this);
                } catch (RejectedExecutionException e) {
                    asked.set(false); // the app is stopping: its waits end at Lettuce's own command timeout
                }
            }
        }

        @Override
        public void run() {
            ranAt = System.nanoTime();
            asked.set(false);
        }
    }
}
