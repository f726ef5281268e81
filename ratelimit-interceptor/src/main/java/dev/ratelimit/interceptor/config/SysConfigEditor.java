package dev.ratelimit.interceptor.config;

import static dev.ratelimit.interceptor.config.SysConfigFields.CHECK_SUFFIX;
import static dev.ratelimit.interceptor.config.SysConfigFields.COUNT_SUFFIX;
import static dev.ratelimit.interceptor.config.SysConfigFields.DYNURI_PREFIX;
import static dev.ratelimit.interceptor.config.SysConfigFields.DYN_PREFIX;
import static dev.ratelimit.interceptor.config.SysConfigFields.GLOBAL_CHECK;
import static dev.ratelimit.interceptor.config.SysConfigFields.GLOBAL_MODE;
import static dev.ratelimit.interceptor.config.SysConfigFields.INTERVAL_SUFFIX;
import static dev.ratelimit.interceptor.config.SysConfigFields.LOG_CHECK;
import static dev.ratelimit.interceptor.config.SysConfigFields.MODE_SUFFIX;
import static dev.ratelimit.interceptor.config.SysConfigFields.WHITELIST_IPS;
import static dev.ratelimit.interceptor.config.SysConfigFields.WHITELIST_USERS;

import dev.ratelimit.interceptor.identity.CidrBlock;
import dev.ratelimit.interceptor.identity.Whitelist;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * Changes the config hash for operators' tools such as the console. Each method checks its input
 * before anything is written, writes one field in its canonical form, and announces the change on
 * {@code {p}:config-changed}, so every instance of every app refreshes its rules at once.
 *
 * <p>Input that is refused throws {@link IllegalArgumentException} with a message fit to show the
 * operator, and nothing is written. Each write returns the field's old and new value for the audit
 * trail.
 */
public class SysConfigEditor {

    static final int MAX_ID_LENGTH = 512;
    private static final String ON = "1";
    private static final String OFF = "0";

    private final SysConfigRepository repository;

    public SysConfigEditor(SysConfigRepository repository) {
        this.repository = repository;
    }

    /** {@code global.check}: the master switch of all limiting. */
    public SysConfigChange setGlobalSwitch(boolean on) {
        return write(GLOBAL_CHECK, on ? ON : OFF);
    }

    /** {@code global.mode}: in {@link RuleMode#SHADOW} no rule rejects anything, whatever its own mode. */
    public SysConfigChange setGlobalMode(RuleMode mode) {
        return write(GLOBAL_MODE, mode.value());
    }

    /** {@code log.check}: whether interceptions are logged. */
    public SysConfigChange setLogSwitch(boolean on) {
        return write(LOG_CHECK, on ? ON : OFF);
    }

    /** {@code <ruleId>.check}: switches one rule (annotated or dynamic) on or off. */
    public SysConfigChange setRuleSwitch(String ruleId, boolean on) {
        return write(ruleField(ruleId, CHECK_SUFFIX), on ? ON : OFF);
    }

    /** {@code <ruleId>.mode}: whether one rule (annotated or dynamic) rejects, or only logs, what it would deny. */
    public SysConfigChange setRuleMode(String ruleId, RuleMode mode) {
        return write(ruleField(ruleId, MODE_SUFFIX), mode.value());
    }

    /**
     * {@code whitelist.ips}: clients never limited, as a comma-separated list of addresses and CIDR blocks
     * (IPv4, IPv6); empty clears it. Refused whole when an entry does not parse.
     */
    public SysConfigChange setWhitelistIps(String commaSeparated) {
        List<String> entries = Whitelist.split(commaSeparated);
        for (String entry : entries) {
            try {
                CidrBlock.parse(entry);
            } catch (IllegalArgumentException e) {
                throw refused(WHITELIST_IPS, e);
            }
        }
        return write(WHITELIST_IPS, String.join(",", new LinkedHashSet<>(entries)));
    }

    /**
     * {@code whitelist.users}: user codes never limited, comma-separated; empty clears it. They match only
     * users the server established (session, login), never a request parameter.
     */
    public SysConfigChange setWhitelistUsers(String commaSeparated) {
        return write(WHITELIST_USERS, String.join(",", new LinkedHashSet<>(Whitelist.split(commaSeparated))));
    }

    /** {@code <ruleId>.count}: requests admitted per window, in place of the annotation's. */
    public SysConfigChange setRuleCount(String ruleId, String count) {
        String field = ruleField(ruleId, COUNT_SUFFIX);
        return write(field, positive(field, count));
    }

    /** {@code <ruleId>.interval}: the window in seconds, in place of the annotation's. */
    public SysConfigChange setRuleInterval(String ruleId, String intervalSeconds) {
        String field = ruleField(ruleId, INTERVAL_SUFFIX);
        return write(field, positive(field, intervalSeconds));
    }

    /**
     * {@code dyn.<endpointId>}: limits a handler method that has no annotation; {@code limit} is
     * {@code <interval>} or {@code <count>/<interval>}, in seconds.
     */
    public SysConfigChange setDynamicRule(String endpointId, String limit) {
        String field = DYN_PREFIX + checkedId(endpointId);
        return write(field, limitSpec(field, limit));
    }

    public SysConfigChange removeDynamicRule(String endpointId) {
        return remove(DYN_PREFIX + present(endpointId, "endpoint id"));
    }

    /** {@code dynuri.<pattern>}: limits every path the Ant pattern matches; {@code limit} as for a {@code dyn} rule. */
    public SysConfigChange setUriRule(String pattern, String limit) {
        String checked = present(pattern, "URL pattern");
        String field = DYNURI_PREFIX + checked;
        try {
            SysConfigParser.validatePattern(checked);
        } catch (IllegalArgumentException e) {
            throw refused(field, e);
        }
        return write(field, limitSpec(field, limit));
    }

    /** Removes a {@code dynuri.*} rule; a pattern that would be refused today can still be removed. */
    public SysConfigChange removeUriRule(String pattern) {
        return remove(DYNURI_PREFIX + present(pattern, "URL pattern"));
    }

    /**
     * Deletes a counter, so its client starts afresh, and has every instance forget the denials it
     * remembered of it (the near cache) at once.
     *
     * @param counterKey the whole key, e.g. {@code ratelimit:counter:shop:OrderController.create:USER:alice}
     * @return whether the counter existed
     */
    public boolean resetCounter(String counterKey) {
        return repository.resetCounter(present(counterKey, "counter key"));
    }

    private SysConfigChange write(String field, String value) {
        return new SysConfigChange(field, repository.write(field, value), value);
    }

    private SysConfigChange remove(String field) {
        return new SysConfigChange(field, repository.remove(field), null);
    }

    private static String ruleField(String ruleId, String suffix) {
        return checkedId(ruleId) + suffix;
    }

    /** A rule or endpoint id: {@code <module>.<rule>}, printable, and not itself a dynamic rule's field. */
    private static String checkedId(String id) {
        String checked = present(id, "rule id");
        int dot = checked.indexOf('.');
        if (dot <= 0 || dot == checked.length() - 1 || checked.length() > MAX_ID_LENGTH
                || checked.chars().anyMatch(c -> c <= ' ' || c == 0x7f)) {
            throw new IllegalArgumentException("'" + LimitSpec.abbreviate(checked) + "' is not a rule id: expected "
                    + "<module>.<rule>, without spaces, at most " + MAX_ID_LENGTH + " characters");
        }
        if (checked.startsWith(DYN_PREFIX) || checked.startsWith(DYNURI_PREFIX)) {
            throw new IllegalArgumentException("'" + LimitSpec.abbreviate(checked) + "' is not a rule id: "
                    + "give the id without the " + DYN_PREFIX + " or " + DYNURI_PREFIX + " prefix");
        }
        return checked;
    }

    private static String present(String value, String what) {
        if (value == null || value.isEmpty()) {
            throw new IllegalArgumentException("a " + what + " is required");
        }
        return value;
    }

    private static String positive(String field, String value) {
        try {
            return Long.toString(SysConfigParser.parsePositive(value));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(LimitSpec.abbreviate(field) + ": " + e.getMessage() + ", got '"
                    + LimitSpec.abbreviate(String.valueOf(value)) + "'", e);
        }
    }

    private static String limitSpec(String field, String value) {
        try {
            return LimitSpec.parse(value).format();
        } catch (IllegalArgumentException e) {
            throw refused(field, e);
        }
    }

    private static IllegalArgumentException refused(String field, IllegalArgumentException cause) {
        return new IllegalArgumentException(LimitSpec.abbreviate(field) + ": " + cause.getMessage(), cause);
    }
}
