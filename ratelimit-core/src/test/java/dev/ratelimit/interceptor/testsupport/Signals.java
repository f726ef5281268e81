package dev.ratelimit.interceptor.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;

/** POSIX signals to processes a test started, through {@code kill}: Java has no call for them. */
final class Signals {

    private Signals() {
    }

    static void send(long pid, String signal) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start();
            if (kill.waitFor() != 0) {
                throw new IllegalStateException("kill -" + signal + " " + pid + " failed");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
