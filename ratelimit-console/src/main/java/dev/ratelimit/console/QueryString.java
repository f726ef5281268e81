package dev.ratelimit.console;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/**
 * A query string built as a form encodes it, which is how the servlet container decodes it: a
 * {@code +} in a value becomes {@code %2B}, so {@code user=plus+sign} comes back as {@code plus+sign},
 * not {@code plus sign}. Every link and redirect of the console is built with it.
 */
public final class QueryString {

    private final StringBuilder query = new StringBuilder();

    public static QueryString of() {
        return new QueryString();
    }

    /** Adds {@code name=value}; a {@code null} value is left out. */
    public QueryString add(String name, Object value) {
        if (value == null) {
            return this;
        }
        if (!query.isEmpty()) {
            query.append('&');
        }
        query.append(URLEncoder.encode(name, StandardCharsets.UTF_8)).append('=')
                .append(URLEncoder.encode(value.toString(), StandardCharsets.UTF_8));
        return this;
    }

    /** {@code page} with this query, if any. */
    public String appendTo(String page) {
        return query.isEmpty() ? page : page + (page.contains("?") ? "&" : "?") + query;
    }

    @Override
    public String toString() {
        return query.toString();
    }
}
