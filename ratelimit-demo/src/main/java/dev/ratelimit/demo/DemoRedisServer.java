package dev.ratelimit.demo;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import redis.embedded.core.ExecutableProvider;

/**
 * The demo's own redis-server: the binary shipped in the embedded-redis artifact, on a free loopback
 * port, without persistence. Where {@code setsid} exists it runs in a session of its own, so the
 * terminal's Ctrl-C reaches the app only: the app stops it after its own context has closed, and
 * nothing in the app sees Redis vanish while it is still stopping.
 */
final class DemoRedisServer {

    private static final Path SETSID = Path.of("/usr/bin/setsid");
    private static final long READY_WITHIN_MILLIS = TimeUnit.SECONDS.toMillis(60);
    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

    private final Process process;
    private final int port;

    private DemoRedisServer(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    static DemoRedisServer start() {
        try {
            File binary = ExecutableProvider.newJarResourceProvider().get();
            int port = freePort();
            Path log = Files.createTempFile("demo-redis-", ".log");
            log.toFile().deleteOnExit();
            List<String> command = new ArrayList<>();
            if (Files.isExecutable(SETSID)) {
                command.add(SETSID.toString());
            }
            command.addAll(List.of(binary.getAbsolutePath(), "--port", Integer.toString(port), "--bind", "127.0.0.1",
                    "--save", "", "--appendonly", "no"));
            Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            awaitReady(process, port, log);
            return new DemoRedisServer(process, port);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot start the demo's redis-server", e);
        }
    }

    int port() {
        return port;
    }

    void stop() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private static void awaitReady(Process process, int port, Path log) throws IOException {
        long deadline = System.currentTimeMillis() + READY_WITHIN_MILLIS;
        while (System.currentTimeMillis() < deadline) {
            if (!process.isAlive()) {
                throw new IOException("redis-server exited with " + process.exitValue() + ": " + Files.readString(log));
            }
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return;
            } catch (IOException notYet) {
                LockSupport.parkNanos(POLL_NANOS); // refused at once while it starts: do not spin
            }
        }
        process.destroyForcibly();
        throw new IOException("redis-server did not listen on port " + port + " within 60 s: " + Files.readString(log));
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
