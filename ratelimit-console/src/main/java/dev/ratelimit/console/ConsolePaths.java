package dev.ratelimit.console;

/** The request mapping prefix of every console controller: {@code ratelimit.console.path}. */
public final class ConsolePaths {

    public static final String BASE = "${ratelimit.console.path:/ratelimit-console}";

    private ConsolePaths() {
    }
}
