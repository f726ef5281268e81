package dev.ratelimit.bench.report;

import dev.ratelimit.bench.BenchLimit;
import dev.ratelimit.bench.KeySpread;
import dev.ratelimit.bench.redis.FixedWindowScript;
import dev.ratelimit.interceptor.testsupport.RedisServerProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * What Redis itself does on this machine: {@code redis-benchmark} (a C client, one event loop) sending
 * {@code EVALSHA} of a script that only returns, {@code INCR}, and {@code EVALSHA} of our fixed-window
 * script on 10,000 keys, from as many connections as the JMH runs have threads, one request in flight
 * per connection (no pipelining). The last one is the most any client could get from our script.
 */
final class RedisCeiling {

    static final String EVALSHA = "EVALSHA of return 1";
    static final String INCR = "INCR";
    static final String OUR_SCRIPT = "EVALSHA of our fixed-window script";
    private static final long TIMEOUT_SECONDS = 120;

    private RedisCeiling() {
    }

    static List<Measurement> measure(List<Integer> clientCounts, int requests) {
        List<Measurement> measurements = new ArrayList<>();
        try (RedisServerProcess redis = RedisServerProcess.start()) {
            String trivial = redis.commands().scriptLoad("return 1");
            BenchLimit limit = BenchLimit.ALLOW;
            String ours = redis.commands().scriptLoad(new FixedWindowScript(limit, 0).text());
            for (int clients : clientCounts) {
                measurements.add(run(redis.port(), clients, requests, EVALSHA, "evalsha", trivial, "0"));
                measurements.add(run(redis.port(), clients, requests, INCR, "incr", "ceiling:counter"));
                // redis-benchmark puts a random number below -r in place of __rand_int__.
                measurements.add(run(redis.port(), clients, requests, OUR_SCRIPT,
                        "-r", Integer.toString(KeySpread.SPREAD.keys()),
                        "evalsha", ours, "1", KeySpread.KEY_PREFIX + "__rand_int__",
                        Long.toString(limit.count()), Long.toString(limit.window().toMillis())));
            }
        }
        return measurements;
    }

    /** One {@code redis-benchmark} run: {@code requests} commands from {@code clients} connections, no pipelining. */
    static Measurement run(int port, int clients, int requests, String name, String... options) {
        List<String> line = new ArrayList<>(List.of("redis-benchmark", "-h", "127.0.0.1", "-p", Integer.toString(port),
                "-c", Integer.toString(clients), "-n", Integer.toString(requests), "--csv"));
        line.addAll(List.of(options));
        String output = execute(line);
        // --csv: a header line, then "test","rps","avg_latency_ms","min_latency_ms","p50_latency_ms",...,"p99_latency_ms","max_latency_ms"
        String[] lines = output.strip().split("\n");
        String[] header = cells(lines[0]);
        String[] values = cells(lines[lines.length - 1]);
        return new Measurement(name, "-", "-", clients, Double.parseDouble(values[column(header, "rps")]),
                Double.parseDouble(values[column(header, "p50_latency_ms")]) * 1_000,
                Double.parseDouble(values[column(header, "p99_latency_ms")]) * 1_000);
    }

    private static String execute(List<String> line) {
        try {
            // Progress goes to stderr; the figures to stdout.
            Process process = new ProcessBuilder(line).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException("redis-benchmark took longer than " + TIMEOUT_SECONDS + " s: " + line);
            }
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (process.exitValue() != 0) {
                throw new IllegalStateException("redis-benchmark exited with " + process.exitValue() + ": " + output);
            }
            return output;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot run redis-benchmark (Debian package redis-tools)", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String[] cells(String csvLine) {
        return csvLine.replace("\"", "").split(",");
    }

    private static int column(String[] header, String name) {
        for (int i = 0; i < header.length; i++) {
            if (header[i].equals(name)) {
                return i;
            }
        }
        throw new IllegalStateException("redis-benchmark --csv has no column " + name);
    }
}
