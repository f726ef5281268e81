package dev.ratelimit.console.dynamic;

import dev.ratelimit.console.ConsoleModel;
import dev.ratelimit.console.ConsolePaths;
import dev.ratelimit.console.ConsoleProperties;
import dev.ratelimit.console.Operators;
import dev.ratelimit.console.PageNotes;
import dev.ratelimit.console.Refusal;
import dev.ratelimit.console.audit.AuditedEditor;
import dev.ratelimit.console.rules.ConsoleRules;
import dev.ratelimit.interceptor.Algorithm;
import dev.ratelimit.interceptor.InvalidValueException;
import dev.ratelimit.interceptor.RateLimitExempt;
import dev.ratelimit.interceptor.config.LimitSpec;
import dev.ratelimit.interceptor.config.RuleMode;
import dev.ratelimit.interceptor.config.SysConfigChange;
import dev.ratelimit.interceptor.config.SysConfigEditor;
import dev.ratelimit.interceptor.config.SysConfigParser;
import dev.ratelimit.interceptor.rule.RuleId;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.Map;
import java.util.function.Function;
import org.springframework.context.MessageSource;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.support.RequestContextUtils;

/**
 * {@code dyn.*} rules picked from the API index and {@code dynuri.*} rules typed as Ant patterns, with
 * a preview of what a pattern would limit. Every write goes through the audited editor, which
 * announces it so every instance applies it at once; a rule that could apply to nothing is refused,
 * and one in the hash that does not apply is shown with the reason. A refused form comes back
 * (post/redirect/get) with the reason and what was typed.
 */
@Controller
@RateLimitExempt
@RequestMapping(ConsolePaths.BASE)
public class DynamicRulesController {

    private final ConsoleRules rules;
    private final AuditedEditor editor;
    private final MessageSource messages;
    private final String page;

    public DynamicRulesController(ConsoleRules rules, AuditedEditor editor, MessageSource messages,
                                  ConsoleProperties properties) {
        this.rules = rules;
        this.editor = editor;
        this.messages = messages;
        this.page = properties.path() + "/dynamic";
    }

    /** The limit of an observed endpoint: a million a minute per user, which no client of a web app reaches. */
    static final String OBSERVED = "1000000/60";

    @GetMapping("/dynamic")
    public String dynamic(@RequestParam(required = false) String preview, HttpServletRequest request,
                          HttpServletResponse response, Model model) {
        model.addAttribute("error", Refusal.message(request, messages));
        DynamicRules dynamic;
        try {
            dynamic = rules(request);
        } catch (RuntimeException e) {
            ConsoleModel.redisDidNotAnswer(model, response, e);
            return "ratelimit-console/dynamic";
        }
        Map<String, String> typed = Refusal.typed(request);
        model.addAttribute("endpoints", dynamic.unannotatedEndpoints());
        model.addAttribute("endpointRules", dynamic.endpointRules());
        model.addAttribute("uriRules", dynamic.uriRules());
        model.addAttribute("typed", typed);
        model.addAttribute("dimensions", LimitSpec.DIMENSIONS);
        model.addAttribute("algorithms", Algorithm.values());
        String pattern = preview != null && !preview.isBlank() ? preview : typed.get("pattern");
        if (pattern != null && !pattern.isBlank()) {
            model.addAttribute("previewPattern", pattern);
            try {
                SysConfigParser.validatePattern(pattern.strip());
                model.addAttribute("preview", dynamic.preview(pattern.strip()));
            } catch (IllegalArgumentException e) {
                model.addAttribute("error", Refusal.describe(e, messages, request));
            }
        }
        return "ratelimit-console/dynamic";
    }

    /** {@code limit} as typed, with the dimension and algorithm picked beside it (the editing form types them in). */
    @PostMapping("/dynamic/endpoint")
    public String saveEndpointRule(@RequestParam String endpoint, @RequestParam String limit,
                                   @RequestParam(defaultValue = "") String dimension,
                                   @RequestParam(defaultValue = "") String algorithm, HttpServletRequest request) {
        return write(edit -> {
            DynamicRules dynamic = rules(request);
            RuleId id = dynamic.endpointId(endpoint.strip());
            dynamic.checkEndpointRule(id);
            return edit.setDynamicRule(id, value(limit, dimension, algorithm));
        }, request, Map.of("endpoint", endpoint, "limit", limit, "dimension", dimension, "algorithm", algorithm));
    }

    /**
     * "Observe" an endpoint without a rule: a {@code dyn} rule in shadow mode with a limit no client reaches
     * ({@link #OBSERVED}), so the limit advisor records its demand while nobody is refused. One audited write; an
     * endpoint that has a {@code dyn} rule keeps it (observing would replace it).
     */
    @PostMapping("/dynamic/observe")
    public String observe(@RequestParam String endpoint, HttpServletRequest request) {
        try {
            editor.applyAll(Operators.of(request), edit -> {
                DynamicRules dynamic = rules(request);
                RuleId id = dynamic.endpointId(endpoint.strip());
                dynamic.checkEndpointRule(id);
                if (rules.now().rule(id).isPresent()) {
                    throw new InvalidValueException("ratelimit.config.observedHasRule", id);
                }
                return edit.edit().dynamicRule(id, OBSERVED).ruleMode(id, RuleMode.SHADOW).apply();
            });
            return PageNotes.of(request).redirect(page, PageNotes.SAVED, "");
        } catch (IllegalArgumentException e) {
            return Refusal.redirect(request, page, e, Map.of("endpoint", endpoint));
        }
    }

    /**
     * Removes the rule of the endpoint the index knows by that text; a rule of an endpoint no module lists
     * any more, whose module the text alone cannot tell, by its text (then only an operator of every module may).
     */
    @PostMapping("/dynamic/endpoint/delete")
    public String deleteEndpointRule(@RequestParam String endpoint, HttpServletRequest request) {
        return write(edit -> {
            RuleId id = rules(request).endpointId(endpoint);
            return id != null ? edit.removeDynamicRule(id) : edit.removeDynamicRule(endpoint);
        }, request, Map.of());
    }

    @PostMapping("/dynamic/uri")
    public String saveUriRule(@RequestParam String pattern, @RequestParam String limit,
                              @RequestParam(defaultValue = "") String dimension,
                              @RequestParam(defaultValue = "") String algorithm, HttpServletRequest request) {
        return write(edit -> edit.setUriRule(pattern.strip(), value(limit, dimension, algorithm)), request,
                Map.of("pattern", pattern, "limit", limit, "dimension", dimension, "algorithm", algorithm));
    }

    /** The field's value: the limit, then the dimension and algorithm picked, unless they are the defaults. */
    private static String value(String limit, String dimension, String algorithm) {
        boolean defaults = (dimension.isBlank() || dimension.equalsIgnoreCase("user"))
                && (algorithm.isBlank() || algorithm.equalsIgnoreCase("fixed_window"));
        return defaults ? limit : limit.strip() + " " + (dimension.isBlank() ? "user" : dimension) + " "
                + (algorithm.isBlank() ? "fixed_window" : algorithm);
    }

    @PostMapping("/dynamic/uri/delete")
    public String deleteUriRule(@RequestParam String pattern, HttpServletRequest request) {
        return write(edit -> edit.removeUriRule(pattern), request, Map.of());
    }

    private DynamicRules rules(HttpServletRequest request) {
        return new DynamicRules(rules.now(), refused -> refused.message(messages,
                RequestContextUtils.getLocale(request)));
    }

    /** Applies an edit; a refused value comes back to the page with the reason and changes nothing. */
    private String write(Function<SysConfigEditor, SysConfigChange> edit, HttpServletRequest request,
                         Map<String, String> typed) {
        try {
            editor.apply(Operators.of(request), edit);
            return PageNotes.of(request).redirect(page, PageNotes.SAVED, "");
        } catch (IllegalArgumentException e) {
            return Refusal.redirect(request, page, e, typed);
        }
    }
}
