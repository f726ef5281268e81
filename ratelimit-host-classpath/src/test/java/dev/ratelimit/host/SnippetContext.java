package dev.ratelimit.host;

import dev.ratelimit.interceptor.RateLimitService;
import jakarta.servlet.http.HttpServletRequest;

/**
 * What the guide's Java snippets take for granted: the app's own types (an order, a partner, an answer of a
 * model) and the beans and values a snippet uses without declaring them. Each snippet compiles as a class that
 * extends this one ({@link DocumentedSnippetsTest}); a name a snippet needs that is neither ours nor here
 * fails that test, so a snippet names only what a reader can find.
 */
@SuppressWarnings("unused")
abstract class SnippetContext {

    protected RateLimitService rateLimitService;
    protected HttpServletRequest request;
    protected Model model;
    protected String prompt;

    protected record Order(String id) {
    }

    protected record Export(String id) {
    }

    protected record Receipt(String id) {
    }

    protected record Partner(String id) {
    }

    protected record OrderPlaced(String customerId) {
    }

    protected record Answer(String text, long tokens) {
    }

    protected interface Model {
        Answer generate(String prompt);
    }
}
