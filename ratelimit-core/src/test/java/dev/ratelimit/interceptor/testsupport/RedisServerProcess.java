package dev.ratelimit.interceptor.testsupport;

import dev.ratelimit.interceptor.store.LimiterRedisConnection;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import redis.embedded.core.ExecutableProvider;

/**
 * A private {@code redis-server} process on a free port, for tests: the {@code redis-server} on the
 * PATH, else the binary shipped in the {@code embedded-redis} artifact. It can be stopped and started
 * again on the same port to test outages.
 */
public final class RedisServerProcess implements AutoCloseable {

    private static final Duration START_TIMEOUT = Duration.ofSeconds(20);
    /**
     * The servers of this JVM still running, killed when it exits: a test that never closes its server (or
     * stops at an error before it does) would otherwise leave it running after the build, on a CI machine too.
     */
    private static final Set<Process> RUNNING = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> RUNNING.forEach(Process::destroyForcibly),
                "redis-test-servers"));
    }

    private final File executable;
    private final int port;
    private final List<String> options;
    private Path dir;
    private Process process;
    private RedisClient client;
    private StatefulRedisConnection<String, String> connection;
    private LimiterRedisConnection limiterConnection;

    private RedisServerProcess(File executable, int port, List<String> options) {
        this.executable = executable;
        this.port = port;
        this.options = List.copyOf(options);
    }

    /** Starts a server on a free port. */
    public static RedisServerProcess start() {
        return start(List.of());
    }

    /**
     * Starts a server on a free port with extra command line options (e.g. {@code --maxmemory 4mb}). A port
     * that another process (a test JVM of the same build) took between the choice and the start is left for
     * another one.
     */
    public static RedisServerProcess start(List<String> options) {
        for (int attempt = 1; ; attempt++) {
            try {
                return start(freePort(), options);
            } catch (PortTakenException e) {
                if (attempt == 3) {
                    throw e;
                }
            }
        }
    }

    /**
     * Starts a server on {@code port} with extra command line options (e.g. {@code --cluster-enabled yes}).
     * Files it writes (such as a cluster's node file) are kept in its directory across {@link #restart()}.
     */
    public static RedisServerProcess start(int port, List<String> options) {
        RedisServerProcess server = new RedisServerProcess(findExecutable(), port, options);
        server.startProcess();
        return server;
    }

    public int port() {
        return port;
    }

    /** Commands against this server, on one connection that reconnects after a restart. */
    public synchronized RedisCommands<String, String> commands() {
        if (connection == null) {
            client = RedisClient.create("redis://127.0.0.1:" + port);
            connection = client.connect();
        }
        return connection.sync();
    }

    /**
     * The limiter's connection to this server, with the shipped timeouts ({@link Stores#connection(int)}), for
     * tests of its stores and background work; one, closed with the server.
     */
    public synchronized LimiterRedisConnection connection() {
        if (limiterConnection == null) {
            limiterConnection = Stores.connection(port);
        }
        return limiterConnection;
    }

    /**
     * Returns once Redis has run everything sent on {@link #connection()} so far: a probe's reply on it comes after
     * them. What a store sent there without waiting (refunds, settlements) is then done, so a flush on another
     * connection, as the next test's, cannot come before it and see it land on its keys.
     */
    public void awaitSent() {
        if (!connection().probe()) {
            throw new IllegalStateException("Redis did not answer a probe on the limiter's connection");
        }
    }

    /**
     * Kills the server (as a crash would: nothing is saved). The connection of {@link #commands()} goes
     * with it, so that the first command after a restart connects at once instead of waiting for the
     * client's reconnect schedule.
     */
    public synchronized void stop() {
        closeConnection();
        if (process != null) {
            process.destroyForcibly();
            RUNNING.remove(process);
            try {
                process.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            process = null;
        }
    }

    /** Starts the server again on the same port, empty (but for files its options make it keep). */
    public synchronized void restart() {
        stop();
        startProcess();
    }

    /**
     * Stops the server process ({@code SIGSTOP}): it keeps its connections but neither reads nor answers,
     * as a server stalled by its host, its disk or a long command would. {@link #resume()} lets it go on.
     */
    public synchronized void pause() {
        Signals.send(process.pid(), "STOP");
    }

    public synchronized void resume() {
        Signals.send(process.pid(), "CONT");
    }

    /**
     * Empties Redis as an operator who wants every app back to its declarations would: every key goes, and
     * the config hash is left with a {@code config.version} newer than any instance's snapshot, announced,
     * so that the instances take the empty config instead of putting their rules back (what they do with a
     * hash that vanished) and merge their declarations again. The flush and the new version in one
     * transaction: instances told of the flush at once (they track the hash) never read it vanished.
     */
    public synchronized void emptyAll() {
        RedisCommands<String, String> redis = commands();
        List<String> time = redis.time();
        long now = Long.parseLong(time.get(0)) * 1000 + Long.parseLong(time.get(1)) / 1000;
        redis.multi();
        redis.flushall();
        redis.hset("ratelimit:sysconfig", "config.version", Long.toString(now + 1000));
        redis.exec();
        redis.publish("ratelimit:config-changed", "emptied");
    }

    /** How often the server ran a command ({@code INFO commandstats}), e.g. {@code evalsha}; 0 if never. */
    public long calls(String command) {
        String prefix = "cmdstat_" + command + ":calls=";
        return commands().info("commandstats").lines().filter(line -> line.startsWith(prefix))
                .map(line -> Long.parseLong(line.substring(prefix.length(), line.indexOf(',')))).findFirst().orElse(0L);
    }

    public boolean isRunning() {
        return process != null && process.isAlive();
    }

    @Override
    public synchronized void close() {
        if (limiterConnection != null) {
            limiterConnection.destroy();
            limiterConnection = null;
        }
        stop();
    }

    private void closeConnection() {
        if (connection != null) {
            connection.close();
            client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
            connection = null;
        }
    }

    private void startProcess() {
        try {
            if (dir == null) {
                dir = Files.createTempDirectory("redis-test-");
                dir.toFile().deleteOnExit();
            }
            List<String> command = new ArrayList<>(List.of(executable.getAbsolutePath(), "--port",
                    Integer.toString(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                    "--dir", dir.toString()));
            command.addAll(options);
            process = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("redis.log").toFile()))
                    .start();
            RUNNING.add(process);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot start " + executable, e);
        }
        Awaitility.await("redis-server on port " + port).atMost(START_TIMEOUT).pollInterval(Duration.ofMillis(20))
                .until(this::answers);
    }

    /**
     * Whether this process answers on its port. Asked for its process id, so that a server of another
     * test JVM on the same port is never taken for it.
     */
    private boolean answers() {
        if (!process.isAlive()) {
            throw process.exitValue() != 0 && !isFree(port)
                    ? new PortTakenException(port)
                    : new IllegalStateException("redis-server exited with " + process.exitValue());
        }
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
            socket.setSoTimeout(1000);
            socket.getOutputStream().write("INFO server\r\n".getBytes(StandardCharsets.US_ASCII));
            BufferedReader reply = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));
            for (String line = reply.readLine(); line != null; line = reply.readLine()) {
                if (line.startsWith("process_id:")) {
                    if (Long.parseLong(line.substring("process_id:".length()).trim()) == process.pid()) {
                        return true;
                    }
                    // Another server holds the port: ours exits, and the next poll says so.
                    return false;
                }
            }
            return false;
        } catch (IOException e) {
            return false;
        }
    }

    /** The port chosen was taken by another process before the server could bind it. */
    private static final class PortTakenException extends IllegalStateException {
        PortTakenException(int port) {
            super("Port " + port + " was taken before redis-server could bind it");
        }
    }

    private static File findExecutable() {
        String path = System.getenv("PATH");
        if (path != null) {
            for (String dir : path.split(File.pathSeparator)) {
                File candidate = new File(dir, "redis-server");
                if (candidate.canExecute()) {
                    return candidate;
                }
            }
        }
        try {
            return ExecutableProvider.newJarResourceProvider().get();
        } catch (IOException e) {
            throw new UncheckedIOException("No redis-server on the PATH and none in the embedded-redis artifact", e);
        }
    }

    /** Whether nothing listens on {@code port} and it can be bound. */
    public static boolean isFree(int port) {
        try (ServerSocket socket = new ServerSocket(port)) {
            socket.setReuseAddress(true);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** A port that was free a moment ago. */
    public static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
