package dev.ratelimit.console.denylist;

import dev.ratelimit.console.ConsoleModel;
import dev.ratelimit.console.ConsolePaths;
import dev.ratelimit.console.ConsoleProperties;
import dev.ratelimit.console.Operators;
import dev.ratelimit.console.PageNotes;
import dev.ratelimit.console.Refusal;
import dev.ratelimit.console.audit.AuditEntry;
import dev.ratelimit.console.audit.AuditTrail;
import dev.ratelimit.console.audit.AuditedEditor;
import dev.ratelimit.console.logs.LogClock;
import dev.ratelimit.console.rules.ConsoleRules;
import dev.ratelimit.interceptor.InvalidValueException;
import dev.ratelimit.interceptor.RateLimitExempt;
import dev.ratelimit.interceptor.config.SysConfigChange;
import dev.ratelimit.interceptor.config.SysConfigFields;
import dev.ratelimit.interceptor.identity.DenyList;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.time.DateTimeException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.context.MessageSource;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;

/**
 * The deny list: the clients refused outright on every instance (addresses and CIDR blocks, users, keys),
 * each with its end, note and who added it when (from the audit trail); add one for a duration picked from
 * a list or until a time, remove one. Every write goes through the limiter's editor (checked, canonical,
 * announced) and the audit trail; a refused form comes back with the reason and what was typed. "Deny
 * for ..." beside a client on the blocked-clients and rule pages posts here too.
 */
@Controller
@RateLimitExempt
@RequestMapping(ConsolePaths.BASE)
public class DenyListController {

    /** Entries per page: the list may hold 10,000, every one of them reached page by page. */
    static final int SHOWN = 500;

    private final ConsoleRules rules;
    private final AuditedEditor editor;
    private final AuditTrail trail;
    private final LogClock clock;
    private final MessageSource messages;
    private final String page;

    public DenyListController(ConsoleRules rules, AuditedEditor editor, AuditTrail trail, LogClock clock,
                              MessageSource messages, ConsoleProperties properties) {
        this.rules = rules;
        this.editor = editor;
        this.trail = trail;
        this.clock = clock;
        this.messages = messages;
        this.page = properties.path() + "/deny-list";
    }

    /** @param page the page of entries, from 1; one that is no number or out of range shows the nearest */
    @GetMapping("/deny-list")
    public String denyList(@RequestParam(required = false) String page, Model model, HttpServletRequest request,
                           HttpServletResponse response) {
        model.addAttribute("kinds", DenyList.Kind.values());
        model.addAttribute("bound", DenyList.MAX_ENTRIES);
        model.addAttribute("zone", clock.clock().getZone().getId());
        model.addAttribute("error", Refusal.message(request, messages));
        model.addAttribute("typed", Refusal.typed(request));
        try {
            List<DenyList.Entry> entries = rules.snapshot().denyList().entries();
            int pages = Math.max(1, (entries.size() + SHOWN - 1) / SHOWN);
            int shownPage = Math.min(pages, pageNumber(page));
            List<DenyList.Entry> shown = entries.subList((shownPage - 1) * SHOWN, Math.min(entries.size(), shownPage * SHOWN));
            model.addAttribute("page", shownPage);
            model.addAttribute("pages", pages);
            model.addAttribute("first", (shownPage - 1) * SHOWN + 1);
            model.addAttribute("last", (shownPage - 1) * SHOWN + shown.size());
            Map<String, AuditEntry> added = trail.latest(shown.stream()
                    .map(entry -> SysConfigFields.deny(entry.kind(), entry.target())).toList());
            model.addAttribute("size", entries.size());
            model.addAttribute("entries", shown.stream().map(entry -> line(entry,
                    added.get(SysConfigFields.deny(entry.kind(), entry.target())))).toList());
        } catch (RuntimeException e) {
            ConsoleModel.redisDidNotAnswer(model, response, e);
            model.addAttribute("size", 0);
            model.addAttribute("pages", 1);
            model.addAttribute("entries", List.of());
        }
        return "ratelimit-console/deny-list";
    }

    private static int pageNumber(String page) {
        try {
            return page == null ? 1 : Math.max(1, Integer.parseInt(page.strip()));
        } catch (NumberFormatException e) {
            return 1;
        }
    }

    /**
     * Adds (or changes) an entry: until {@code until} when given (the browser's date and time field, in the
     * console's zone, or an ISO instant), else for {@code duration}.
     */
    @PostMapping("/deny-list/add")
    public String add(@RequestParam String kind, @RequestParam String target,
                      @RequestParam(defaultValue = "1h") String duration, @RequestParam(defaultValue = "") String until,
                      @RequestParam(defaultValue = "") String note, HttpServletRequest request) {
        Map<String, String> typed = new LinkedHashMap<>();
        typed.put("kind", kind);
        typed.put("target", target);
        typed.put("duration", duration);
        typed.put("until", until);
        typed.put("note", note);
        List<SysConfigChange> changes;
        try {
            DenyList.Kind denied = kind(kind);
            Instant end = end(duration, until);
            changes = editor.applyAll(Operators.of(request), config -> config.deny(denied, target, end, note));
        } catch (IllegalArgumentException e) {
            return Refusal.redirect(request, page, e, typed);
        }
        return PageNotes.of(request).redirect(page, PageNotes.ADDED, changes.get(0).field());
    }

    /** Removes an entry, named as the list shows it. */
    @PostMapping("/deny-list/remove")
    public String remove(@RequestParam String kind, @RequestParam String target, HttpServletRequest request) {
        try {
            DenyList.Kind denied = kind(kind);
            editor.apply(Operators.of(request), config -> config.undeny(denied, target));
        } catch (IllegalArgumentException e) {
            return Refusal.redirect(request, page, e, Map.of());
        }
        return PageNotes.of(request).redirect(page, PageNotes.REMOVED, target);
    }

    private DenyLine line(DenyList.Entry entry, AuditEntry added) {
        return new DenyLine(entry, entry.until() == null ? null : clock.format(entry.until()),
                added == null ? null : added.operator(), added == null ? null : clock.format(added.at()));
    }

    private static DenyList.Kind kind(String word) {
        DenyList.Kind kind = DenyList.Kind.of(word);
        if (kind == null) {
            throw new InvalidValueException("ratelimit.config.deny.kind", word);
        }
        return kind;
    }

    private Instant end(String duration, String until) {
        if (!until.isBlank()) {
            try {
                return clock.parse(until);
            } catch (DateTimeException e) {
                throw new InvalidValueException("ratelimit.config.deny");
            }
        }
        DenyDuration picked = DenyDuration.of(duration);
        if (picked == null) {
            throw new InvalidValueException("ratelimit.config.deny");
        }
        return picked.endFrom(clock.clock().instant());
    }

    /**
     * An entry as the page lists it.
     *
     * @param until   its end in the console's zone, or {@code null} for none
     * @param addedBy who wrote it last, from the audit trail, or {@code null} when the trail does not say
     * @param addedAt when, in the console's zone
     */
    public record DenyLine(DenyList.Entry entry, String until, String addedBy, String addedAt) {
    }
}
