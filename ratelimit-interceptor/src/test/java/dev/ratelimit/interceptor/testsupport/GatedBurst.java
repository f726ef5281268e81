package dev.ratelimit.interceptor.testsupport;

import dev.ratelimit.interceptor.fixture.Occupancy;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.function.Predicate;
import org.awaitility.Awaitility;

/**
 * Clients sent at once at a handler that holds every request it lets in at the gate of its run
 * ({@link Occupancy}): once each request is either inside or answered, what is inside is what the limit
 * lets run at once; then the gate opens and the requests inside finish.
 */
public final class GatedBurst {

    private static final Duration SETTLES = Duration.ofSeconds(30);

    private GatedBurst() {
    }

    /**
     * @param path the gated endpoint, its {@code run} parameter naming {@code run}
     * @return what was inside once every request was inside or answered, and how the burst ended
     */
    public static Round send(List<HttpProbe> instances, int clients, String path, String run) throws Exception {
        Held<HttpResponse<String>> held = hold(clients, run,
                thread -> instances.get(thread % instances.size()).get(path), response -> response.statusCode() == 200);
        return new Round(held.inside(), held.most(),
                held.answered().stream().filter(response -> response.statusCode() != 200).toList(), held.admitted());
    }

    /**
     * Any attempts at once, each either held inside at the gate of {@code run} or answered at once: HTTP requests,
     * calls of a limited bean method.
     *
     * @param attempt  attempt {@code i} of {@code clients}
     * @param admitted whether an attempt's answer says it got in
     * @return what was inside once every attempt was inside or answered, and how the burst ended
     */
    public static <T> Held<T> hold(int clients, String run, IntFunction<T> attempt, Predicate<T> admitted)
            throws Exception {
        Occupancy inside = Occupancy.of(run);
        ConcurrentLinkedQueue<T> answered = new ConcurrentLinkedQueue<>();
        ExecutorService sender = Executors.newSingleThreadExecutor();
        try {
            CompletableFuture<Integer> burst = CompletableFuture.supplyAsync(() -> {
                try {
                    return ConcurrentClients.admitted(clients, 1, thread -> {
                        T answer = attempt.apply(thread);
                        answered.add(answer);
                        return admitted.test(answer);
                    });
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }, sender);
            Awaitility.await("every attempt of " + run + " inside or answered").atMost(SETTLES)
                    .until(() -> inside.inside() + answered.size() == clients);
            int insideAtOnce = inside.inside();
            List<T> answeredWhileHeld = List.copyOf(answered);
            inside.open();
            return new Held<>(insideAtOnce, inside.most(), answeredWhileHeld,
                    burst.get(SETTLES.toSeconds(), TimeUnit.SECONDS));
        } finally {
            sender.shutdown();
        }
    }

    /**
     * @param inside   the requests inside once every other one was answered
     * @param most     the most inside at once during the whole burst
     * @param refused  the responses of the requests that never got in
     * @param admitted the requests that ran, answered once the gate opened
     */
    public record Round(int inside, int most, List<HttpResponse<String>> refused, int admitted) {
    }

    /**
     * @param inside   the attempts inside once every other one was answered
     * @param most     the most inside at once during the whole burst
     * @param answered the answers of the attempts not held at the gate: refused, or not held by their handler
     * @param admitted the attempts that got in, those held answered once the gate opened
     */
    public record Held<T>(int inside, int most, List<T> answered, int admitted) {
    }
}
