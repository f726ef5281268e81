package dev.ratelimit.console.dynamic;

import dev.ratelimit.apiindex.ApiIndexRepository;
import dev.ratelimit.console.ConsolePaths;
import dev.ratelimit.console.ConsoleProperties;
import dev.ratelimit.console.Operators;
import dev.ratelimit.console.audit.AuditedEditor;
import dev.ratelimit.interceptor.RateLimitExempt;
import dev.ratelimit.interceptor.config.SysConfigChange;
import dev.ratelimit.interceptor.config.SysConfigEditor;
import dev.ratelimit.interceptor.config.SysConfigParser;
import dev.ratelimit.interceptor.config.SysConfigRepository;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.function.Function;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;

/**
 * {@code dyn.*} rules picked from the API index and {@code dynuri.*} rules typed as Ant patterns, with
 * a preview of what a pattern would limit. Every write goes through the audited editor, which
 * announces it so every instance applies it at once.
 */
@Controller
@RateLimitExempt
@RequestMapping(ConsolePaths.BASE)
public class DynamicRulesController {

    private final ApiIndexRepository index;
    private final SysConfigRepository config;
    private final AuditedEditor editor;
    private final String page;

    public DynamicRulesController(ApiIndexRepository index, SysConfigRepository config, AuditedEditor editor,
                                  ConsoleProperties properties) {
        this.index = index;
        this.config = config;
        this.editor = editor;
        this.page = "redirect:" + properties.path() + "/dynamic?saved";
    }

    @GetMapping("/dynamic")
    public String dynamic(@RequestParam(required = false) String preview, Model model) {
        DynamicRules rules = new DynamicRules(index, config.readAll());
        model.addAttribute("endpoints", rules.unannotatedEndpoints());
        model.addAttribute("endpointRules", rules.endpointRules());
        model.addAttribute("uriRules", rules.uriRules());
        if (preview != null && !preview.isBlank()) {
            model.addAttribute("previewPattern", preview);
            try {
                SysConfigParser.validatePattern(preview.strip());
                model.addAttribute("preview", rules.preview(preview.strip()));
            } catch (IllegalArgumentException e) {
                model.addAttribute("error", e.getMessage());
            }
        }
        return "ratelimit-console/dynamic";
    }

    @PostMapping("/dynamic/endpoint")
    public String saveEndpointRule(@RequestParam String endpoint, @RequestParam String limit,
                                   HttpServletRequest request, HttpServletResponse response, Model model) {
        return write(edit -> edit.setDynamicRule(endpoint.strip(), limit), request, response, model);
    }

    @PostMapping("/dynamic/endpoint/delete")
    public String deleteEndpointRule(@RequestParam String endpoint, HttpServletRequest request,
                                     HttpServletResponse response, Model model) {
        return write(edit -> edit.removeDynamicRule(endpoint), request, response, model);
    }

    @PostMapping("/dynamic/uri")
    public String saveUriRule(@RequestParam String pattern, @RequestParam String limit, HttpServletRequest request,
                              HttpServletResponse response, Model model) {
        return write(edit -> edit.setUriRule(pattern.strip(), limit), request, response, model);
    }

    @PostMapping("/dynamic/uri/delete")
    public String deleteUriRule(@RequestParam String pattern, HttpServletRequest request,
                                HttpServletResponse response, Model model) {
        return write(edit -> edit.removeUriRule(pattern), request, response, model);
    }

    /** Applies an edit; a refused value re-renders the page with the reason and changes nothing. */
    private String write(Function<SysConfigEditor, SysConfigChange> edit, HttpServletRequest request,
                         HttpServletResponse response, Model model) {
        try {
            editor.apply(Operators.of(request), edit);
            return page;
        } catch (IllegalArgumentException e) {
            response.setStatus(HttpServletResponse.SC_BAD_REQUEST);
            model.addAttribute("error", e.getMessage());
            return dynamic(null, model);
        }
    }
}
