package dev.ratelimit.interceptor.durability;

import dev.ratelimit.interceptor.testsupport.HttpProbe;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;

/**
 * Load on every instance, each response checked as it comes: a 5xx, or a response decided by another limit
 * than the operator's (its {@code RateLimit-Policy} names the declared count, or no limit where the
 * operator set one, or a limit where the operator switched it off), is a violation, kept with what was
 * seen. The threads go round the paths and the instances with fresh users, so that responses are admitted
 * and refused alike.
 */
final class DecisionWatch implements AutoCloseable {

    static final int THREADS = 8;
    private static final Pattern COUNT = Pattern.compile("\"([^\"]+)\";q=(\\d+)");

    private final List<HttpProbe> instances;
    private volatile Map<String, Long> expected;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicLong responses = new AtomicLong();
    private final Queue<String> violations = new ConcurrentLinkedQueue<>();
    private final ExecutorService threads = Executors.newFixedThreadPool(THREADS);
    private final List<Future<?>> loops = new ArrayList<>();

    /** @param expected by path, the count of the rule's limit each response must carry, {@code null} for none */
    DecisionWatch(List<HttpProbe> instances, Map<String, Long> expected) {
        this.instances = List.copyOf(instances);
        this.expected = Collections.unmodifiableMap(new LinkedHashMap<>(expected));
        for (int thread = 0; thread < THREADS; thread++) {
            int id = thread;
            loops.add(threads.submit(() -> loop(id)));
        }
    }

    private void loop(int thread) {
        List<String> paths = List.copyOf(expected.keySet());
        long i = 0;
        while (running.get()) {
            String path = paths.get((int) (i % paths.size()));
            HttpProbe instance = instances.get((int) ((i / paths.size() + thread) % instances.size()));
            String user = "t" + thread + "-" + (i / (paths.size() * 4));
            i++;
            HttpResponse<String> response;
            try {
                response = instance.get(path + "?usercode=" + user);
            } catch (RuntimeException e) {
                violations.add(path + ": no response: " + e);
                continue;
            }
            responses.incrementAndGet();
            check(path, response);
        }
    }

    private void check(String path, HttpResponse<String> response) {
        if (response.statusCode() >= 500) {
            violations.add(path + ": " + response.statusCode() + " " + response.body());
            return;
        }
        String rule = rule(path);
        Long count = null;
        Matcher matcher = COUNT.matcher(response.headers().firstValue("RateLimit-Policy").orElse(""));
        while (matcher.find()) {
            if (matcher.group(1).equals(rule)) {
                count = Long.parseLong(matcher.group(2));
            }
        }
        Long wanted = expected.get(path);
        if (wanted == null ? count != null : !wanted.equals(count)) {
            violations.add(path + ": decided by " + (count == null ? "no limit" : "a limit of " + count)
                    + " instead of " + (wanted == null ? "none" : wanted) + " (" + response.statusCode() + ")");
        }
    }

    /** The rule each path's policy names: the endpoint's own. */
    private static String rule(String path) {
        return switch (path) {
            case "/user" -> OperatorRules.USER.rule();
            case "/open/plain" -> OperatorRules.OPEN.rule();
            case "/short" -> OperatorRules.SHORT.rule();
            default -> throw new IllegalArgumentException(path);
        };
    }

    /** From now on, responses must say this: after an operator's change that every instance applies. */
    void expect(Map<String, Long> newExpected) {
        expected = Collections.unmodifiableMap(new LinkedHashMap<>(newExpected));
    }

    /** Waits until {@code more} responses have come back since the call. */
    void awaitResponses(long more) {
        long target = responses.get() + more;
        Awaitility.await(more + " more responses").atMost(Duration.ofSeconds(60))
                .until(() -> responses.get() >= target || !running.get());
    }

    long responses() {
        return responses.get();
    }

    List<String> violations() {
        return List.copyOf(violations);
    }

    @Override
    public void close() throws Exception {
        running.set(false);
        for (Future<?> loop : loops) {
            loop.get(30, TimeUnit.SECONDS);
        }
        threads.shutdown();
    }
}
