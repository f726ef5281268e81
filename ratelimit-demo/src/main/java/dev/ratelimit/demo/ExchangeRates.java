package dev.ratelimit.demo;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.Dimension;
import dev.ratelimit.interceptor.RateLimit;
import java.time.Instant;
import java.util.Map;
import org.springframework.stereotype.Service;

/**
 * An outbound client, not a controller: the exchange-rate provider allows this app a burst of 5 calls,
 * then one every 2 seconds, over all its instances (a token bucket of 5 per 10 s for the method as a
 * whole). A call beyond that waits up to 3 s for its turn, then throws {@code RateLimitExceededException}.
 */
@Service
public class ExchangeRates {

    @RateLimit(count = 5, interval = 10, dimension = Dimension.METHOD, algorithm = Algorithm.TOKEN_BUCKET,
            maxWait = "3s")
    public Map<String, Object> fetch(String currency) {
        // Stands for the provider's HTTP API.
        return Map.of("currency", currency, "perDollar", 0.9 + Math.floorMod(currency.hashCode(), 20) / 100.0,
                "at", Instant.now().toString());
    }
}
