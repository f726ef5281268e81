package dev.ratelimit.bench.call;

import dev.ratelimit.interceptor.Dimension;
import dev.ratelimit.interceptor.RateLimit;
import org.springframework.stereotype.Service;

/**
 * A bean whose method is limited as an outbound client's would be, per user; the benchmark gives the rule its
 * count and window through the config hash.
 */
@Service
public class BenchClient {

    @RateLimit(count = 1_000_000_000L, interval = 1, dimension = Dimension.CUSTOM, key = "#user")
    public boolean call(String user) {
        return true;
    }
}
