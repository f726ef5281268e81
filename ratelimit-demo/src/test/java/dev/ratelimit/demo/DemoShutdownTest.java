package dev.ratelimit.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The demo as a newcomer runs it from a terminal: it says how to reach its Redis, and Ctrl-C (a signal
 * to the terminal's whole process group) stops it without a warning or a stack trace, its redis-server
 * last. Run as a process of its own, in a session of its own, signalled as a terminal does.
 */
class DemoShutdownTest {

    private static final Pattern REDIS_CLI = Pattern.compile("look inside with: redis-cli -p (\\d+)");

    @Test
    void tellsItsRedisPortAndStopsQuietlyWhenItsTerminalIsInterrupted(@TempDir Path dir) throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/setsid")), "needs setsid to stand in for a terminal");
        Path output = dir.resolve("demo.log");
        // SIGTERM, not SIGINT: a build started in the background ignores SIGINT, and so would the demo.
        Process demo = new ProcessBuilder("/usr/bin/setsid", Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-cp", System.getProperty("java.class.path"), DemoApplication.class.getName(),
                "--server.port=0").redirectErrorStream(true).redirectOutput(output.toFile()).start();
        try {
            String started = Awaitility.await("the demo started").atMost(Duration.ofMinutes(2))
                    .until(() -> Files.readString(output), log -> log.contains("Started DemoApplication"));
            Matcher redisCli = REDIS_CLI.matcher(started);
            assertThat(redisCli.find()).as("the redis-cli command in\n%s", started).isTrue();
            int redisPort = Integer.parseInt(redisCli.group(1));
            assertThat(listens(redisPort)).isTrue();

            new ProcessBuilder("kill", "-TERM", "--", "-" + demo.pid()).inheritIO().start().waitFor();

            assertThat(demo.waitFor(1, TimeUnit.MINUTES)).as("the demo stopped").isTrue();
            String shutdown = Files.readString(output).substring(started.length());
            assertThat(shutdown).as("what the demo printed while stopping").doesNotContain("WARN", "ERROR", "Exception");
            assertThat(listens(redisPort)).as("its redis-server stopped too").isFalse();
        } finally {
            demo.destroyForcibly();
        }
    }

    private static boolean listens(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 1000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
