package dev.ratelimit.interceptor.penalty;

import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.QuotaPeriod;
import dev.ratelimit.interceptor.RateLimit;
import dev.ratelimit.interceptor.ResponseCost;
import dev.ratelimit.interceptor.fixture.Occupancy;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Every kind of limit a handler declares, on every algorithm it can take, each with a penalty: the matrix of
 * {@link PenaltyMatrixContract}. The rule of a kind and algorithm is {@code penalty-<KIND>-<ALGORITHM>}, its
 * endpoint {@code /penalty/<KIND>/<ALGORITHM>}. Each counts {@link #COUNT} units per hour per user and blocks a
 * client it denied for two hours (a day quota, two days): longer than any wait of its algorithm, so the first
 * block is the penalty to the second. A request with {@code run} is held at the gate of that run
 * ({@link Occupancy}) while it runs.
 */
@RestController
public class PenalizedController {

    public static final int COUNT = 4;
    /** What a request of the {@code COST} kind weighs, and the estimate of the {@code COST_FROM_RESPONSE} kind. */
    public static final int COST = 2;
    static final long WINDOW = 3600;
    static final long BLOCK = 7200;
    static final long QUOTA_BLOCK = 2 * 86400;
    private static final String ITEMS = "#request.getParameter('items').split(',').length";
    private static final String PLAN = "#headers['X-Plan']";

    @RateLimit(rule = "penalty-PLAIN-FIXED_WINDOW", count = COUNT, interval = WINDOW, penalty = BLOCK)
    @GetMapping("/penalty/PLAIN/FIXED_WINDOW")
    public String plainFixedWindow(@RequestParam(required = false) String run) throws InterruptedException {
        return ran(run);
    }

    @RateLimit(rule = "penalty-PLAIN-SLIDING_WINDOW", count = COUNT, interval = WINDOW, penalty = BLOCK,
            algorithm = Algorithm.SLIDING_WINDOW)
    @GetMapping("/penalty/PLAIN/SLIDING_WINDOW")
    public String plainSlidingWindow(@RequestParam(required = false) String run) throws InterruptedException {
        return ran(run);
    }

    @RateLimit(rule = "penalty-PLAIN-SLIDING_LOG", count = COUNT, interval = WINDOW, penalty = BLOCK,
            algorithm = Algorithm.SLIDING_LOG)
    @GetMapping("/penalty/PLAIN/SLIDING_LOG")
    public String plainSlidingLog(@RequestParam(required = false) String run) throws InterruptedException {
        return ran(run);
    }

    @RateLimit(rule = "penalty-PLAIN-TOKEN_BUCKET", count = COUNT, interval = WINDOW, penalty = BLOCK,
            algorithm = Algorithm.TOKEN_BUCKET)
    @GetMapping("/penalty/PLAIN/TOKEN_BUCKET")
    public String plainTokenBucket(@RequestParam(required = false) String run) throws InterruptedException {
        return ran(run);
    }

    @RateLimit(rule = "penalty-PLAIN-CONCURRENCY", count = COUNT, penalty = BLOCK, algorithm = Algorithm.CONCURRENCY)
    @GetMapping("/penalty/PLAIN/CONCURRENCY")
    public String plainConcurrency(@RequestParam(required = false) String run) throws InterruptedException {
        return ran(run);
    }

    @RateLimit(rule = "penalty-COUNT_WHEN-FIXED_WINDOW", count = COUNT, interval = WINDOW, penalty = BLOCK,
            countWhen = "#status == 401")
    @GetMapping("/penalty/COUNT_WHEN/FIXED_WINDOW")
    public ResponseEntity<String> countWhenFixedWindow(@RequestParam(required = false) String run,
                                                       @RequestParam boolean ok) throws InterruptedException {
        return login(run, ok);
    }

    @RateLimit(rule = "penalty-COUNT_WHEN-SLIDING_WINDOW", count = COUNT, interval = WINDOW, penalty = BLOCK,
            countWhen = "#status == 401", algorithm = Algorithm.SLIDING_WINDOW)
    @GetMapping("/penalty/COUNT_WHEN/SLIDING_WINDOW")
    public ResponseEntity<String> countWhenSlidingWindow(@RequestParam(required = false) String run,
                                                         @RequestParam boolean ok) throws InterruptedException {
        return login(run, ok);
    }

    @RateLimit(rule = "penalty-COUNT_WHEN-SLIDING_LOG", count = COUNT, interval = WINDOW, penalty = BLOCK,
            countWhen = "#status == 401", algorithm = Algorithm.SLIDING_LOG)
    @GetMapping("/penalty/COUNT_WHEN/SLIDING_LOG")
    public ResponseEntity<String> countWhenSlidingLog(@RequestParam(required = false) String run,
                                                      @RequestParam boolean ok) throws InterruptedException {
        return login(run, ok);
    }

    @RateLimit(rule = "penalty-COUNT_WHEN-TOKEN_BUCKET", count = COUNT, interval = WINDOW, penalty = BLOCK,
            countWhen = "#status == 401", algorithm = Algorithm.TOKEN_BUCKET)
    @GetMapping("/penalty/COUNT_WHEN/TOKEN_BUCKET")
    public ResponseEntity<String> countWhenTokenBucket(@RequestParam(required = false) String run,
                                                       @RequestParam boolean ok) throws InterruptedException {
        return login(run, ok);
    }

    @RateLimit(rule = "penalty-COST-FIXED_WINDOW", count = COUNT, interval = WINDOW, penalty = BLOCK, cost = COST)
    @GetMapping("/penalty/COST/FIXED_WINDOW")
    public String costFixedWindow(@RequestParam(required = false) String run) throws InterruptedException {
        return ran(run);
    }

    @RateLimit(rule = "penalty-COST-SLIDING_WINDOW", count = COUNT, interval = WINDOW, penalty = BLOCK, cost = COST,
            algorithm = Algorithm.SLIDING_WINDOW)
    @GetMapping("/penalty/COST/SLIDING_WINDOW")
    public String costSlidingWindow(@RequestParam(required = false) String run) throws InterruptedException {
        return ran(run);
    }

    @RateLimit(rule = "penalty-COST-SLIDING_LOG", count = COUNT, interval = WINDOW, penalty = BLOCK, cost = COST,
            algorithm = Algorithm.SLIDING_LOG)
    @GetMapping("/penalty/COST/SLIDING_LOG")
    public String costSlidingLog(@RequestParam(required = false) String run) throws InterruptedException {
        return ran(run);
    }

    @RateLimit(rule = "penalty-COST-TOKEN_BUCKET", count = COUNT, interval = WINDOW, penalty = BLOCK, cost = COST,
            algorithm = Algorithm.TOKEN_BUCKET)
    @GetMapping("/penalty/COST/TOKEN_BUCKET")
    public String costTokenBucket(@RequestParam(required = false) String run) throws InterruptedException {
        return ran(run);
    }

    @RateLimit(rule = "penalty-COST_EXPRESSION-FIXED_WINDOW", count = COUNT, interval = WINDOW, penalty = BLOCK,
            costExpression = ITEMS)
    @GetMapping("/penalty/COST_EXPRESSION/FIXED_WINDOW")
    public String costExpressionFixedWindow(@RequestParam(required = false) String run) throws InterruptedException {
        return ran(run);
    }

    @RateLimit(rule = "penalty-COST_EXPRESSION-SLIDING_WINDOW", count = COUNT, interval = WINDOW, penalty = BLOCK,
            costExpression = ITEMS, algorithm = Algorithm.SLIDING_WINDOW)
    @GetMapping("/penalty/COST_EXPRESSION/SLIDING_WINDOW")
    public String costExpressionSlidingWindow(@RequestParam(required = false) String run) throws InterruptedException {
        return ran(run);
    }

    @RateLimit(rule = "penalty-COST_EXPRESSION-SLIDING_LOG", count = COUNT, interval = WINDOW, penalty = BLOCK,
            costExpression = ITEMS, algorithm = Algorithm.SLIDING_LOG)
    @GetMapping("/penalty/COST_EXPRESSION/SLIDING_LOG")
    public String costExpressionSlidingLog(@RequestParam(required = false) String run) throws InterruptedException {
        return ran(run);
    }

    @RateLimit(rule = "penalty-COST_EXPRESSION-TOKEN_BUCKET", count = COUNT, interval = WINDOW, penalty = BLOCK,
            costExpression = ITEMS, algorithm = Algorithm.TOKEN_BUCKET)
    @GetMapping("/penalty/COST_EXPRESSION/TOKEN_BUCKET")
    public String costExpressionTokenBucket(@RequestParam(required = false) String run) throws InterruptedException {
        return ran(run);
    }

    @RateLimit(rule = "penalty-COST_FROM_RESPONSE-FIXED_WINDOW", count = COUNT, interval = WINDOW, penalty = BLOCK,
            cost = COST, costFromResponse = "#reported")
    @GetMapping("/penalty/COST_FROM_RESPONSE/FIXED_WINDOW")
    public String costFromResponseFixedWindow(@RequestParam(required = false) String run, @RequestParam long units)
            throws InterruptedException {
        return used(run, units);
    }

    @RateLimit(rule = "penalty-COST_FROM_RESPONSE-TOKEN_BUCKET", count = COUNT, interval = WINDOW, penalty = BLOCK,
            cost = COST, costFromResponse = "#reported", algorithm = Algorithm.TOKEN_BUCKET)
    @GetMapping("/penalty/COST_FROM_RESPONSE/TOKEN_BUCKET")
    public String costFromResponseTokenBucket(@RequestParam(required = false) String run, @RequestParam long units)
            throws InterruptedException {
        return used(run, units);
    }

    @RateLimit(rule = "penalty-QUOTA-FIXED_WINDOW", count = COUNT, quota = QuotaPeriod.DAY, penalty = QUOTA_BLOCK)
    @GetMapping("/penalty/QUOTA/FIXED_WINDOW")
    public String quotaFixedWindow(@RequestParam(required = false) String run) throws InterruptedException {
        return ran(run);
    }

    @RateLimit(rule = "penalty-PLAN-FIXED_WINDOW", count = COUNT, interval = WINDOW, penalty = BLOCK, plan = PLAN)
    @GetMapping("/penalty/PLAN/FIXED_WINDOW")
    public String planFixedWindow(@RequestParam(required = false) String run) throws InterruptedException {
        return ran(run);
    }

    @RateLimit(rule = "penalty-PLAN-SLIDING_WINDOW", count = COUNT, interval = WINDOW, penalty = BLOCK, plan = PLAN,
            algorithm = Algorithm.SLIDING_WINDOW)
    @GetMapping("/penalty/PLAN/SLIDING_WINDOW")
    public String planSlidingWindow(@RequestParam(required = false) String run) throws InterruptedException {
        return ran(run);
    }

    @RateLimit(rule = "penalty-PLAN-SLIDING_LOG", count = COUNT, interval = WINDOW, penalty = BLOCK, plan = PLAN,
            algorithm = Algorithm.SLIDING_LOG)
    @GetMapping("/penalty/PLAN/SLIDING_LOG")
    public String planSlidingLog(@RequestParam(required = false) String run) throws InterruptedException {
        return ran(run);
    }

    @RateLimit(rule = "penalty-PLAN-TOKEN_BUCKET", count = COUNT, interval = WINDOW, penalty = BLOCK, plan = PLAN,
            algorithm = Algorithm.TOKEN_BUCKET)
    @GetMapping("/penalty/PLAN/TOKEN_BUCKET")
    public String planTokenBucket(@RequestParam(required = false) String run) throws InterruptedException {
        return ran(run);
    }

    @RateLimit(rule = "penalty-PLAN-CONCURRENCY", count = COUNT, penalty = BLOCK, plan = PLAN,
            algorithm = Algorithm.CONCURRENCY)
    @GetMapping("/penalty/PLAN/CONCURRENCY")
    public String planConcurrency(@RequestParam(required = false) String run) throws InterruptedException {
        return ran(run);
    }

    /** Held at the gate of {@code run} while it runs, if there is one. */
    static String ran(String run) throws InterruptedException {
        return run == null ? "done" : Occupancy.of(run).holdUntilOpen();
    }

    /** A login: 401 for a wrong password, the answer its limit counts. */
    private static ResponseEntity<String> login(String run, boolean ok) throws InterruptedException {
        ran(run);
        return ok ? ResponseEntity.ok("welcome") : ResponseEntity.status(HttpStatus.UNAUTHORIZED).body("wrong password");
    }

    /** What the request used, reported for its limit to settle. */
    private static String used(String run, long units) throws InterruptedException {
        ran(run);
        ResponseCost.report(units);
        return Long.toString(units);
    }
}
