package dev.ratelimit.interceptor.testsupport;

import dev.ratelimit.interceptor.Dimension;
import dev.ratelimit.interceptor.log.Interception;
import dev.ratelimit.interceptor.rule.RuleId;
import java.time.Instant;

/** Interceptions as the interceptor makes them, for tests of the log. */
public final class Interceptions {

    private Interceptions() {
    }

    /** A rejection by a USER limit of 10 per 60 s. */
    public static Interception of(Instant at, String module, String rule, String user, String ip, String uri) {
        return new Interception(at, RuleId.of(module, rule), user, ip, "GET", uri, Dimension.USER, 10, 60, false);
    }

    /** The {@code n}th of a series of rejections, each with its own user and URI. */
    public static Interception numbered(int n) {
        return of(Instant.now(), "bench", "BenchController.hit", "user-" + (n % 1000), "10.1." + (n % 250) + ".1",
                "/bench/" + n);
    }
}
