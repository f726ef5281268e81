package dev.ratelimit.console.blocked;

import dev.ratelimit.apiindex.ApiIndexRepository;
import dev.ratelimit.console.ConsoleModel;
import dev.ratelimit.console.ConsolePaths;
import dev.ratelimit.console.ConsoleProperties;
import dev.ratelimit.console.Operators;
import dev.ratelimit.console.PageNotes;
import dev.ratelimit.console.audit.AuditedEditor;
import dev.ratelimit.console.logs.LogClock;
import dev.ratelimit.interceptor.RateLimitExempt;
import dev.ratelimit.interceptor.blocked.BlockedClient;
import dev.ratelimit.interceptor.blocked.BlockedClients;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.List;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;

/**
 * The clients refused now, across every instance of every module, and Unblock. An unblock deletes the
 * client's counter for the rule and has every instance forget its denials at once (see
 * {@link BlockedClients#unblock}); it is recorded in the audit trail like a config change.
 */
@Controller
@RateLimitExempt
@RequestMapping(ConsolePaths.BASE)
public class BlockedController {

    /** Per module: a flood of identities must not make the page unbounded. */
    public static final int SHOWN_PER_MODULE = 500;

    private final BlockedClients blocked;
    private final ApiIndexRepository index;
    private final AuditedEditor editor;
    private final LogClock time;
    private final String page;

    public BlockedController(BlockedClients blocked, ApiIndexRepository index, AuditedEditor editor, LogClock time,
                             ConsoleProperties properties) {
        this.blocked = blocked;
        this.index = index;
        this.editor = editor;
        this.time = time;
        this.page = properties.path() + "/blocked";
    }

    @GetMapping("/blocked")
    public String blocked(Model model, HttpServletResponse response) {
        model.addAttribute("shownPerModule", SHOWN_PER_MODULE);
        try {
            model.addAttribute("clients", blocked.now(index.modules(), SHOWN_PER_MODULE).stream()
                    .map(client -> new BlockedLine(time.format(client.until()), client)).toList());
        } catch (RuntimeException e) {
            ConsoleModel.redisDidNotAnswer(model, response, e);
            model.addAttribute("clients", List.of());
        }
        return "ratelimit-console/blocked";
    }

    @PostMapping("/blocked/unblock")
    public String unblock(@RequestParam String module, @RequestParam String member, HttpServletRequest request) {
        try {
            editor.change(Operators.of(request), module, unblockField(module, member), "blocked", "unblocked",
                    () -> blocked.unblock(module, member));
        } catch (IllegalArgumentException e) {
            return PageNotes.of(request).redirect(page, PageNotes.UNKNOWN, "");
        }
        return PageNotes.of(request).redirect(page, PageNotes.UNBLOCKED, member);
    }

    /** The audit trail's field of an unblock; with a member's start, the start of the fields of its unblocks. */
    public static String unblockField(String module, String member) {
        return "unblock " + module + " " + member;
    }

    /** A blocked client with the end of its block as the page shows it, in the log's zone. */
    public record BlockedLine(String until, BlockedClient client) {
    }
}
