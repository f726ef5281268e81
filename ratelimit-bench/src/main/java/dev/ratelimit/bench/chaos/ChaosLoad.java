package dev.ratelimit.bench.chaos;

import dev.ratelimit.interceptor.testsupport.HttpProbe;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Clients on every instance, each request to a random path of the operator's rules for one of a few
 * users, every response kept as an {@link Observation}: what decided it and when its window ends.
 */
final class ChaosLoad implements AutoCloseable {

    static final List<String> PATHS = List.of("/user", "/user", "/user", "/user", "/open/plain", "/short");
    private static final Pattern POLICY = Pattern.compile("\"([^\"]+)\";q=(\\d+)");
    private static final Pattern STATE = Pattern.compile("\"([^\"]+)\";r=\\d+;t=(\\d+)");

    private final List<HttpProbe> instances;
    private final int users;
    private final long start;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final Queue<Observation> observations = new ConcurrentLinkedQueue<>();
    private final AtomicLong unanswered = new AtomicLong();
    private final ExecutorService clients;

    ChaosLoad(List<HttpProbe> instances, int threads, int users, long start) {
        this.instances = List.copyOf(instances);
        this.users = users;
        this.start = start;
        this.clients = Executors.newFixedThreadPool(threads);
        for (int i = 0; i < threads; i++) {
            clients.execute(this::loop);
        }
    }

    private void loop() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        while (running.get()) {
            String path = PATHS.get(random.nextInt(PATHS.size()));
            String user = "chaos-" + random.nextInt(users);
            HttpProbe instance = instances.get(random.nextInt(instances.size()));
            long sent = System.nanoTime() - start;
            try {
                HttpResponse<String> response = instance.get(path + "?usercode=" + user);
                observations.add(observation(sent, path, user, response));
            } catch (RuntimeException e) {
                unanswered.incrementAndGet(); // an instance paused longer than the client waits
            }
        }
    }

    private Observation observation(long sent, String path, String user, HttpResponse<String> response) {
        String rule = ChaosRun.ruleOf(path);
        long count = -1;
        Matcher policy = POLICY.matcher(response.headers().firstValue("RateLimit-Policy").orElse(""));
        while (policy.find()) {
            if (policy.group(1).equals(rule)) {
                count = Long.parseLong(policy.group(2));
            }
        }
        long reset = -1;
        Matcher state = STATE.matcher(response.headers().firstValue("RateLimit").orElse(""));
        if (state.find() && state.group(1).equals(rule)) {
            reset = Long.parseLong(state.group(2));
        }
        return new Observation(sent, System.nanoTime() - start, path, user, response.statusCode(), count, reset);
    }

    List<Observation> observations() {
        return List.copyOf(observations);
    }

    long unanswered() {
        return unanswered.get();
    }

    @Override
    public void close() throws InterruptedException {
        running.set(false);
        clients.shutdown();
        clients.awaitTermination(60, TimeUnit.SECONDS);
    }
}
