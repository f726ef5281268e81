package dev.ratelimit.bench;

import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * One benchmark thread's walk over the counters: each thread starts at its own offset and steps
 * through all of them in turn, so the threads together hit every counter equally often.
 */
@State(Scope.Thread)
public class KeyCursor {

    private int keys;
    private int next;

    @Setup(Level.Trial)
    public void start(BenchmarkParams benchmark, ThreadParams thread) {
        keys = KeySpread.valueOf(benchmark.getParam("keys")).keys();
        next = (int) ((long) thread.getThreadIndex() * keys / thread.getThreadCount());
    }

    /** The index of the counter for the next request. */
    public int next() {
        int key = next;
        next = key + 1 == keys ? 0 : key + 1;
        return key;
    }
}
