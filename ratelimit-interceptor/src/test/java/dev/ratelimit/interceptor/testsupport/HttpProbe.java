package dev.ratelimit.interceptor.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Sends real HTTP requests to an app started on a port. */
public final class HttpProbe {

    /** HTTP/1.1: the default (HTTP/2) adds an h2c upgrade attempt to every request, and so to every measured latency. */
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(10);

    private final String host;
    private final int port;

    public HttpProbe(int port) {
        this("127.0.0.1", port);
    }

    /** A probe that connects to {@code host}, e.g. {@code [::1]} to be an IPv6 client. */
    public HttpProbe(String host, int port) {
        this.host = host;
        this.port = port;
    }

    /** GET {@code path} with headers given as name, value, name, value... */
    public HttpResponse<String> get(String path, String... headers) {
        return send("GET", path, headers);
    }

    /** POST with an empty body. */
    public HttpResponse<String> post(String path, String... headers) {
        return send("POST", path, headers);
    }

    private HttpResponse<String> send(String method, String path, String... headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://" + host + ":" + port + path))
                .method(method, HttpRequest.BodyPublishers.noBody())
                .timeout(REQUEST_TIMEOUT);
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        // The client's own timeout is enforced by its selector thread; waiting on the future with a bound
        // of our own keeps a test from hanging should that thread ever stall.
        CompletableFuture<HttpResponse<String>> response = CLIENT.sendAsync(request.build(),
                HttpResponse.BodyHandlers.ofString());
        try {
            return response.get(REQUEST_TIMEOUT.toSeconds() + 5, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof IOException io ? new UncheckedIOException(io)
                    : new IllegalStateException(e.getCause());
        } catch (TimeoutException e) {
            response.cancel(true);
            // The client's own timer did not fire either: say what every thread was doing, the client's included.
            System.err.println(threadDump());
            throw new IllegalStateException(method + " " + path + " got no response, not even the client's timeout", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String threadDump() {
        StringBuilder dump = new StringBuilder("Threads when a request got no response:\n");
        Thread.getAllStackTraces().forEach((thread, stack) -> {
            dump.append('"').append(thread.getName()).append("\" ").append(thread.getState()).append('\n');
            for (StackTraceElement frame : stack) {
                dump.append("    at ").append(frame).append('\n');
            }
        });
        return dump.toString();
    }

    public int status(String path, String... headers) {
        return get(path, headers).statusCode();
    }
}
