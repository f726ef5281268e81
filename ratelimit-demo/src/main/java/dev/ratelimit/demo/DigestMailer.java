package dev.ratelimit.demo;

import dev.ratelimit.interceptor.Dimension;
import dev.ratelimit.interceptor.RateLimit;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;

/** Mails the operators' digest: at most once a minute, across every instance of the app. */
@Service
public class DigestMailer {

    private static final Logger log = LoggerFactory.getLogger(DigestMailer.class);

    @RateLimit(count = 1, interval = 1, unit = TimeUnit.MINUTES, dimension = Dimension.METHOD)
    public void mailDigest() {
        log.info("Mailed the digest (at most once a minute over all instances: rule demo.DigestMailer.mailDigest)");
    }
}
