package dev.ratelimit.demo;

import dev.ratelimit.interceptor.RateLimitExceededException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;

/**
 * A scheduled job on every instance, every 15 s; the limit of {@link DigestMailer#mailDigest} makes the
 * digest go out once a minute over all of them, without a lock or a leader.
 */
@Configuration(proxyBeanMethods = false)
@EnableScheduling
public class DigestSchedule {

    private static final Logger log = LoggerFactory.getLogger(DigestSchedule.class);

    private final DigestMailer mailer;

    public DigestSchedule(DigestMailer mailer) {
        this.mailer = mailer;
    }

    @Scheduled(initialDelay = 15, fixedDelay = 15, timeUnit = TimeUnit.SECONDS)
    void mailDigest() {
        try {
            mailer.mailDigest();
        } catch (RateLimitExceededException notYet) {
            log.debug("The digest went out less than a minute ago; next in {}", notYet.retryAfter());
        }
    }
}
