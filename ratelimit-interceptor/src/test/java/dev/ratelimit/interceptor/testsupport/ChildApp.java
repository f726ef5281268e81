package dev.ratelimit.interceptor.testsupport;

import dev.ratelimit.interceptor.fixture.FixtureMain;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;

/**
 * The fixture app in a JVM of its own, as an instance that a test can pause and continue with
 * {@code SIGSTOP}/{@code SIGCONT} (what a stop-the-world pause or a frozen container does to it), kill
 * ({@code SIGKILL}, a crash) or stop as a platform does ({@code SIGTERM}). Its output goes to a file under
 * {@code target/}, named in failures.
 */
public final class ChildApp implements AutoCloseable {

    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);
    /** Far beyond any stop the limiter allows, so that a stop that hangs is measured, not cut short. */
    private static final Duration STOP_TIMEOUT = Duration.ofMinutes(3);

    private final Process process;
    private final Path output;
    private final int port;
    private final Duration startTime;

    private ChildApp(Process process, Path output, int port, Duration startTime) {
        this.process = process;
        this.output = output;
        this.port = port;
        this.startTime = startTime;
    }

    /** Starts it against the Redis on {@code redisPort}, with extra {@code key=value} properties, and waits until it serves. */
    public static ChildApp start(int redisPort, String... properties) {
        try {
            Path output = Files.createTempFile(Path.of("target"), "child-app-", ".log");
            List<String> command = new ArrayList<>(List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", System.getProperty("java.class.path"), FixtureMain.class.getName(),
                    Integer.toString(redisPort)));
            command.addAll(List.of(properties));
            long launched = System.nanoTime();
            Process process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(output.toFile()).start();
            AtomicInteger port = new AtomicInteger();
            Awaitility.await("child app serving, see " + output).atMost(START_TIMEOUT)
                    .pollInterval(Duration.ofMillis(100)).until(() -> {
                        if (!process.isAlive()) {
                            throw new IllegalStateException("child app exited, see " + output);
                        }
                        return Files.readAllLines(output).stream().filter(line -> line.startsWith(FixtureMain.READY))
                                .findFirst().map(line -> {
                                    port.set(Integer.parseInt(line.substring(FixtureMain.READY.length()).strip()));
                                    return true;
                                }).orElse(false);
                    });
            return new ChildApp(process, output, port.get(), Duration.ofNanos(System.nanoTime() - launched));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Starts it against a Redis Cluster, with extra {@code key=value} properties, and waits until it serves. */
    public static ChildApp start(RedisClusterProcess cluster, String... properties) {
        return start(cluster.port(0), cluster.springProperties(properties));
    }

    public int port() {
        return port;
    }

    /** From the launch of its JVM until it served, the JVM's own start included. */
    public Duration startTime() {
        return startTime;
    }

    public HttpProbe http() {
        return new HttpProbe(port);
    }

    /** Stops the process as a whole ({@code SIGSTOP}), so that it neither runs nor reads its sockets. */
    public void pause() {
        signal("STOP");
    }

    /** Lets it go on ({@code SIGCONT}). */
    public void resume() {
        signal("CONT");
    }

    /** Ends the process at once ({@code SIGKILL}), as a crash or an OOM kill does: nothing runs on its way out. */
    public void kill() throws InterruptedException {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }

    /**
     * Asks it to stop ({@code SIGTERM}), as Kubernetes, systemd and {@code docker stop} do, and waits until
     * the JVM has exited.
     *
     * @return how long the stop took
     */
    public Duration terminate() throws InterruptedException {
        long sent = System.nanoTime();
        signal("TERM");
        if (!process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new IllegalStateException("child app still running " + STOP_TIMEOUT + " after SIGTERM, see "
                    + output);
        }
        return Duration.ofNanos(System.nanoTime() - sent);
    }

    private void signal(String name) {
        Signals.send(process.pid(), name);
    }

    public Path output() {
        return output;
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            resume();
        }
        process.destroy();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        File file = output.toFile();
        file.deleteOnExit();
    }
}
