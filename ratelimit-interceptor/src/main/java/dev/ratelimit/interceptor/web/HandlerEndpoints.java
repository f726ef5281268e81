package dev.ratelimit.interceptor.web;

import dev.ratelimit.interceptor.rule.Endpoint;
import dev.ratelimit.interceptor.rule.EndpointCatalog;
import dev.ratelimit.interceptor.rule.HttpHandler;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.mvc.method.RequestMappingInfo;

/** Spring MVC's handler methods as the endpoint catalog knows them. */
public final class HandlerEndpoints {

    private HandlerEndpoints() {
    }

    /** Registers the handler methods of one handler mapping; throws if a declaration is invalid. */
    public static void register(EndpointCatalog catalog, Map<RequestMappingInfo, HandlerMethod> handlerMethods) {
        List<HttpHandler> handlers = new ArrayList<>(handlerMethods.size());
        handlerMethods.forEach((info, handler) -> handlers.add(new HttpHandler(handler.getBeanType(), handler.getMethod(),
                info.getPatternValues(), httpMethods(info))));
        catalog.registerHandlers(handlers);
    }

    /** The endpoint of a handler method, or {@code null} for an exempt one. */
    public static @Nullable Endpoint of(EndpointCatalog catalog, HandlerMethod handler) {
        return catalog.handlerEndpoint(handler.getBeanType(), handler.getMethod());
    }

    private static Set<String> httpMethods(RequestMappingInfo info) {
        Set<String> methods = new TreeSet<>();
        for (RequestMethod method : info.getMethodsCondition().getMethods()) {
            methods.add(method.name());
        }
        return methods;
    }
}
