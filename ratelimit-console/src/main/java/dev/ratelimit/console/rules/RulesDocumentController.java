package dev.ratelimit.console.rules;

import dev.ratelimit.console.ConsolePaths;
import dev.ratelimit.console.ConsoleProperties;
import dev.ratelimit.console.Operators;
import dev.ratelimit.console.PageNotes;
import dev.ratelimit.console.ReadOnlyForm;
import dev.ratelimit.console.Refusal;
import dev.ratelimit.console.access.ConsoleOperator;
import dev.ratelimit.console.audit.AuditedEditor;
import dev.ratelimit.console.logs.LogClock;
import dev.ratelimit.interceptor.RateLimitExempt;
import dev.ratelimit.interceptor.config.SysConfigChange;
import dev.ratelimit.interceptor.config.document.RulesDocument;
import dev.ratelimit.interceptor.config.document.RulesImport;
import jakarta.servlet.http.HttpServletRequest;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.springframework.context.MessageSource;
import org.springframework.http.ContentDisposition;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;

/**
 * The rules of every module as one YAML document ({@link RulesDocument}): exported for version control
 * and for another environment, and imported with a preview of exactly what changes (the fields added,
 * changed, removed and unchanged, and every value refused with the reason in the operator's language).
 * Apply writes what the preview showed, in one atomic step, only if the config has not changed since; it
 * is announced to every instance and audited under the operator's name.
 */
@Controller
@RateLimitExempt
@RequestMapping(ConsolePaths.BASE)
public class RulesDocumentController {

    private static final MediaType YAML = MediaType.parseMediaType("application/yaml;charset=UTF-8");

    private final ConsoleRules rules;
    private final AuditedEditor editor;
    private final LogClock clock;
    private final MessageSource messages;
    private final String rulesPage;

    public RulesDocumentController(ConsoleRules rules, AuditedEditor editor, LogClock clock, MessageSource messages,
                                   ConsoleProperties properties) {
        this.rules = rules;
        this.editor = editor;
        this.clock = clock;
        this.messages = messages;
        this.rulesPage = properties.path() + "/rules";
    }

    @GetMapping("/rules/export")
    public ResponseEntity<String> export() {
        String name = "ratelimit-rules-" + clock.today() + ".yaml";
        return ResponseEntity.ok().contentType(YAML)
                .header(HttpHeaders.CONTENT_DISPOSITION, ContentDisposition.attachment().filename(name,
                        StandardCharsets.UTF_8).build().toString())
                .body(RulesDocument.write(rules.now()));
    }

    @GetMapping("/rules/import")
    public String importPage(Model model) {
        model.addAttribute("document", "");
        model.addAttribute("mode", RulesImport.Mode.MERGE.name());
        return "ratelimit-console/import";
    }

    /** Shows what the document would change; changes nothing, so a viewer may preview too. */
    @ReadOnlyForm
    @PostMapping("/rules/import/preview")
    public String previewDocument(@RequestParam(defaultValue = "") String document,
                                  @RequestParam(defaultValue = "MERGE") String mode, HttpServletRequest request,
                                  Model model) {
        return importDocument(document, mode, null, request, model);
    }

    /**
     * Applies the document when {@code version} (what the preview shown read) is given, else previews it; a
     * config changed since the preview shows the preview again, with the reason.
     */
    @PostMapping("/rules/import")
    public String importDocument(@RequestParam(defaultValue = "") String document,
                                 @RequestParam(defaultValue = "MERGE") String mode,
                                 @RequestParam(required = false) Long version, HttpServletRequest request,
                                 Model model) {
        RulesImport.Mode chosen = mode.toUpperCase(Locale.ROOT).equals(RulesImport.Mode.REPLACE.name())
                ? RulesImport.Mode.REPLACE : RulesImport.Mode.MERGE;
        ConsoleOperator operator = Operators.of(request);
        RulesImport.Preview preview = editor.preview(operator, rules.now(), document, chosen);
        if (version != null && preview.refused().isEmpty()) {
            try {
                List<SysConfigChange> written = editor.apply(operator, preview, version);
                long changed = written.stream().filter(change -> !Objects.equals(change.oldValue(), change.newValue()))
                        .count();
                return PageNotes.of(request).redirect(rulesPage, PageNotes.IMPORTED, changed);
            } catch (IllegalArgumentException e) {
                model.addAttribute("error", Refusal.describe(e, messages, request));
            }
        }
        model.addAttribute("document", document);
        model.addAttribute("mode", chosen.name());
        model.addAttribute("preview", preview);
        // Apply is offered only to whom it would not be refused; the fields it may not write say why.
        model.addAttribute("notAllowed", preview.refused().isEmpty() ? editor.notAllowed(operator, preview) : List.of());
        model.addAttribute("refusals", preview.refused().stream()
                .map(refused -> new RefusedLine(refused.where(), Refusal.describe(refused.reason(), messages, request)))
                .toList());
        return "ratelimit-console/import";
    }

    /** A refused value as the page lists it, the reason in the operator's language. */
    public record RefusedLine(String where, String reason) {
    }
}
