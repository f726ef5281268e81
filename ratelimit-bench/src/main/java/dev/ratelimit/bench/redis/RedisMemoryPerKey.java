package dev.ratelimit.bench.redis;

import dev.ratelimit.bench.BenchLimit;
import dev.ratelimit.bench.Limiter;
import dev.ratelimit.bench.report.MarkdownTable;
import dev.ratelimit.interceptor.testsupport.RedisServerProcess;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.api.sync.RedisCommands;

/**
 * What one counter costs in Redis, per contender: each fills a fresh {@code redis-server} with
 * {@code counters} live counters (one request each, windows of an hour), then reads the growth of
 * {@code used_memory} (less what client connections hold) and {@code MEMORY USAGE} of a sample of keys.
 */
public final class RedisMemoryPerKey {

    private static final int SAMPLE = 1_000;

    private RedisMemoryPerKey() {
    }

    public static MarkdownTable measure(int counters) {
        MarkdownTable table = new MarkdownTable("contender", "Redis keys per counter",
                "MEMORY USAGE per counter (B)", "used_memory growth per counter (B)");
        for (RedisContender contender : RedisContender.values()) {
            if (!contender.decidesOneLimit()) {
                continue;
            }
            try (RedisServerProcess redis = RedisServerProcess.start()) {
                RedisCommands<String, String> commands = redis.commands();
                long before = dataMemory(commands);
                try (Limiter limiter = contender.open(redis, BenchLimit.LONG_WINDOW, counters)) {
                    for (int i = 0; i < counters; i++) {
                        limiter.tryAcquire(i);
                    }
                    double keysPerCounter = (double) commands.dbsize() / counters;
                    table.row(contender, MarkdownTable.decimal(keysPerCounter),
                            MarkdownTable.decimal(sampledMemoryUsage(commands) * keysPerCounter),
                            MarkdownTable.decimal((double) (dataMemory(commands) - before) / counters));
                }
            }
        }
        return table;
    }

    /** {@code used_memory} less the buffers of client connections, which differ between clients. */
    private static long dataMemory(RedisCommands<String, String> commands) {
        String info = commands.info("memory");
        return field(info, "used_memory") - field(info, "mem_clients_normal");
    }

    private static double sampledMemoryUsage(RedisCommands<String, String> commands) {
        KeyScanCursor<String> cursor = commands.scan(ScanArgs.Builder.limit(SAMPLE));
        long total = 0;
        for (String key : cursor.getKeys()) {
            total += commands.memoryUsage(key);
        }
        return (double) total / cursor.getKeys().size();
    }

    private static long field(String info, String name) {
        for (String line : info.split("\r?\n")) {
            if (line.startsWith(name + ":")) {
                return Long.parseLong(line.substring(name.length() + 1).strip());
            }
        }
        throw new IllegalStateException("INFO memory has no " + name);
    }
}
