package dev.ratelimit.interceptor.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** Sends real HTTP requests to an app started on a port. */
public final class HttpProbe {

    /** HTTP/1.1: the default (HTTP/2) adds an h2c upgrade attempt to every request, and so to every measured latency. */
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    private final int port;

    public HttpProbe(int port) {
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
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .method(method, HttpRequest.BodyPublishers.noBody())
                .timeout(Duration.ofSeconds(10));
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        try {
            return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public int status(String path, String... headers) {
        return get(path, headers).statusCode();
    }
}
