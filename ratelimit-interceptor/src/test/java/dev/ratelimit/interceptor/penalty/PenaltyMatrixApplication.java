package dev.ratelimit.interceptor.penalty;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Import;

/** The app of {@link PenaltyMatrixContract}: a limit of every kind on every algorithm it can take, each with a penalty. */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import({PenalizedController.class, PenalizedCalls.class, PenalizedRules.class})
public class PenaltyMatrixApplication {
}
