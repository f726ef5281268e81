package dev.ratelimit.bench.local;

import dev.ratelimit.bench.BenchLimit;
import dev.ratelimit.bench.KeySpread;
import dev.ratelimit.bench.Limiter;
import dev.ratelimit.bench.report.MarkdownTable;
import org.openjdk.jol.info.GraphLayout;

/**
 * What one counter costs on the heap, per contender: the object graph the contender holds (walked by
 * JOL, so exact for this JVM's layout) with {@code counters} live counters, less the graph with none.
 * The key strings are part of it; their size is shown apart.
 */
public final class LocalMemoryPerKey {

    private LocalMemoryPerKey() {
    }

    public static MarkdownTable measure(int counters) {
        long keySize = GraphLayout.parseInstance(KeySpread.key(counters / 2)).totalSize();
        MarkdownTable table = new MarkdownTable("contender", "heap per counter (B)",
                "of which the key string (B)", "without the key string (B)");
        for (LocalContender contender : LocalContender.values()) {
            long empty = heldBytes(contender.open(BenchLimit.LONG_WINDOW, 0));
            Limiter limiter = contender.open(BenchLimit.LONG_WINDOW, counters);
            for (int i = 0; i < counters; i++) {
                limiter.tryAcquire(i);
            }
            double perCounter = (double) (heldBytes(limiter) - empty) / counters;
            table.row(contender, MarkdownTable.decimal(perCounter), keySize,
                    MarkdownTable.decimal(perCounter - keySize));
        }
        return table;
    }

    private static long heldBytes(Limiter limiter) {
        return GraphLayout.parseInstance(limiter.heldState()).totalSize();
    }
}
