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
        Occupancy inside = Occupancy.of(run);
        ConcurrentLinkedQueue<HttpResponse<String>> refused = new ConcurrentLinkedQueue<>();
        ExecutorService sender = Executors.newSingleThreadExecutor();
        try {
            CompletableFuture<Integer> burst = CompletableFuture.supplyAsync(() -> {
                try {
                    return ConcurrentClients.admitted(clients, 1, thread -> {
                        HttpResponse<String> response = instances.get(thread % instances.size()).get(path);
                        if (response.statusCode() != 200) {
                            refused.add(response);
                        }
                        return response.statusCode() == 200;
                    });
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }, sender);
            Awaitility.await("every request of " + run + " inside or answered").atMost(SETTLES)
                    .until(() -> inside.inside() + refused.size() == clients);
            int insideAtOnce = inside.inside();
            List<HttpResponse<String>> answered = List.copyOf(refused);
            inside.open();
            return new Round(insideAtOnce, inside.most(), answered, burst.get(SETTLES.toSeconds(), TimeUnit.SECONDS));
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
}
