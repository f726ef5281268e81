package dev.ratelimit.console.report;

// Not Interception.@Nullable Reason, which javac 17 drops from the compact constructor's parameter.
import dev.ratelimit.interceptor.log.Interception.Reason;
import dev.ratelimit.interceptor.rule.RuleId;
import java.time.LocalDateTime;
import org.jspecify.annotations.Nullable;

/**
 * Which log rows a report covers. Every part is optional (null or blank: any). Times are wall-clock
 * times of the log's time zone ({@code ratelimit.log.time-zone}); {@code from} is inclusive, {@code to}
 * exclusive. {@code module} must match exactly; {@code rule}, {@code user} and {@code ip} match as
 * prefixes ({@code OrderController.} finds every rule of that controller, {@code 10.0.} a network; a rule
 * matches by its name or by its id {@code <module>.<rule>}, as the console names it), and
 * are plain text: {@code %} and {@code _} in them are literal characters, not wildcards. With
 * {@code wholeRule} the rule matches as a whole name ({@link #ofRule}). {@code reason}, when given, keeps
 * the interceptions of limits or those of the deny list only.
 */
public record LogFilter(@Nullable LocalDateTime from, @Nullable LocalDateTime to, @Nullable String module,
                        @Nullable String rule, @Nullable String user, @Nullable String ip,
                        @Nullable Reason reason, boolean wholeRule) {

    /** A filter whose {@code rule} matches as a prefix, of any reason. */
    public LogFilter(@Nullable LocalDateTime from, @Nullable LocalDateTime to, @Nullable String module,
                     @Nullable String rule, @Nullable String user, @Nullable String ip) {
        this(from, to, module, rule, user, ip, null, false);
    }

    public LogFilter {
        module = blankToNull(module);
        rule = blankToNull(rule);
        user = blankToNull(user);
        ip = blankToNull(ip);
    }

    /** Every row. */
    public static LogFilter all() {
        return new LogFilter(null, null, null, null, null, null);
    }

    /** The rows of one rule, exactly: not of the rules whose names start with its name. */
    public static LogFilter ofRule(RuleId rule) {
        return new LogFilter(null, null, rule.module(), rule.rule(), null, null, null, true);
    }

    /** This filter over another time range. */
    public LogFilter between(@Nullable LocalDateTime newFrom, @Nullable LocalDateTime newTo) {
        return new LogFilter(newFrom, newTo, module, rule, user, ip, reason, wholeRule);
    }

    /** This filter, of one reason only ({@code null}: any). */
    public LogFilter withReason(@Nullable Reason newReason) {
        return new LogFilter(from, to, module, rule, user, ip, newReason, wholeRule);
    }

    private static @Nullable String blankToNull(@Nullable String value) {
        return value == null || value.isBlank() ? null : value.strip();
    }
}
