package dev.ratelimit.console;

import dev.ratelimit.interceptor.blocked.BlockedClient;
import dev.ratelimit.interceptor.config.RuleDescription;
import dev.ratelimit.interceptor.config.RulesInForce;
import dev.ratelimit.interceptor.identity.DenyList;
import dev.ratelimit.interceptor.log.Interception;
import dev.ratelimit.interceptor.rule.RuleId;
import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.MethodParameter;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ValueConstants;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.mvc.method.RequestMappingInfo;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

/**
 * The console's GET pages from its handler mappings: each without parameters when it needs none, and with
 * each value a test has for the parameters it takes. A new page or a new parameter is so read by every test
 * that reads the pages, or fails for want of values.
 */
final class ConsolePages {

    private ConsolePages() {
    }

    /** The pages of the console in {@code app}, with {@code values} for their parameters ({@link #parameterValues}). */
    static Set<String> of(ConfigurableApplicationContext app, Map<Set<String>, List<Map<String, String>>> values) {
        Set<String> pages = new LinkedHashSet<>();
        RequestMappingHandlerMapping mappings = app.getBean("requestMappingHandlerMapping", RequestMappingHandlerMapping.class);
        for (Map.Entry<RequestMappingInfo, HandlerMethod> mapping : mappings.getHandlerMethods().entrySet()) {
            HandlerMethod handler = mapping.getValue();
            Set<RequestMethod> methods = mapping.getKey().getMethodsCondition().getMethods();
            if (!handler.getBeanType().getPackageName().startsWith("dev.ratelimit.console")
                    || !methods.isEmpty() && !methods.contains(RequestMethod.GET)) {
                continue;
            }
            Map<String, Boolean> parameters = queryParameters(handler);
            for (String path : mapping.getKey().getPatternValues()) {
                boolean anyRequired = parameters.containsValue(true);
                if (!anyRequired) {
                    pages.add(path);
                }
                values.forEach((names, variants) -> {
                    if (parameters.keySet().containsAll(names)) {
                        variants.forEach(variant -> {
                            QueryString query = QueryString.of();
                            variant.forEach(query::add);
                            pages.add(query.appendTo(path));
                        });
                    }
                });
                parameters.forEach((name, required) -> {
                    if (required && values.keySet().stream().noneMatch(names -> names.contains(name))) {
                        throw new AssertionError(path + " needs parameter '" + name + "': give this test values for it");
                    }
                });
            }
        }
        return pages;
    }

    /**
     * Values for groups of parameters: every rule in force, blocked or of the deny list, patterns to preview,
     * every reason of an interception, the blocked clients and an address.
     */
    static Map<Set<String>, List<Map<String, String>>> parameterValues(RulesInForce rules, List<BlockedClient> blocked) {
        Set<RuleId> ids = new LinkedHashSet<>();
        rules.rules().stream().map(RuleDescription::id).forEach(ids::add);
        blocked.forEach(client -> ids.add(RuleId.of(client.module(), client.rule())));
        Arrays.stream(DenyList.Kind.values()).forEach(kind -> ids.add(RuleId.of(EveryKind.MODULE, kind.rule())));
        Map<Set<String>, List<Map<String, String>>> values = new LinkedHashMap<>();
        values.put(Set.of("module", "rule"), ids.stream()
                .map(id -> Map.of("module", id.module(), "rule", id.rule())).toList());
        values.put(Set.of("preview"), Stream.concat(rules.uriRules().keySet().stream(), Stream.of("/**", "/nothing/here"))
                .map(pattern -> Map.of("preview", pattern)).toList());
        values.put(Set.of("reason"), Arrays.stream(Interception.Reason.values())
                .map(reason -> Map.of("reason", reason.value())).toList());
        values.put(Set.of("user"), blocked.stream().map(BlockedClient::identity).distinct()
                .map(identity -> Map.of("user", identity)).toList());
        values.put(Set.of("ip"), List.of(Map.of("ip", "127.0.0.1")));
        return values;
    }

    /** The query parameters of a handler, by name, and whether each is required. */
    private static Map<String, Boolean> queryParameters(HandlerMethod handler) {
        Map<String, Boolean> parameters = new LinkedHashMap<>();
        for (MethodParameter parameter : handler.getMethodParameters()) {
            RequestParam param = parameter.getParameterAnnotation(RequestParam.class);
            if (param != null) {
                String name = param.name().isEmpty() ? parameter.getParameterName() : param.name();
                parameters.put(name, param.required() && param.defaultValue().equals(ValueConstants.DEFAULT_NONE)
                        && !parameter.isOptional());
            } else if (parameter.getParameterType().isRecord()) {
                Arrays.stream(parameter.getParameterType().getRecordComponents()).map(RecordComponent::getName)
                        .forEach(name -> parameters.put(name, false));
            }
        }
        return parameters;
    }
}
