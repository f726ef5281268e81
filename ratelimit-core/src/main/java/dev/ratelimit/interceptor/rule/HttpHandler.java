package dev.ratelimit.interceptor.rule;

import java.lang.reflect.Method;
import java.util.Collection;
import java.util.List;
import java.util.Set;

/**
 * A handler method of the web layer as the catalog registers it, whatever web framework maps it.
 *
 * @param controller  the controller class the method serves (one inherited method may serve two)
 * @param patterns    the URL patterns it is mapped to
 * @param httpMethods the HTTP methods it answers ({@code GET}, ...); empty for all
 */
public record HttpHandler(Class<?> controller, Method method, Collection<String> patterns, Set<String> httpMethods) {

    public HttpHandler {
        patterns = List.copyOf(patterns);
        httpMethods = Set.copyOf(httpMethods);
    }
}
