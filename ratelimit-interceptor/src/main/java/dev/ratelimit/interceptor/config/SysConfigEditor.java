package dev.ratelimit.interceptor.config;

import static dev.ratelimit.interceptor.config.SysConfigFields.BLOCK_SUFFIX;
import static dev.ratelimit.interceptor.config.SysConfigFields.CHECK_SUFFIX;
import static dev.ratelimit.interceptor.config.SysConfigFields.COUNT_SUFFIX;
import static dev.ratelimit.interceptor.config.SysConfigFields.DECLARED_PREFIX;
import static dev.ratelimit.interceptor.config.SysConfigFields.DYNURI_PREFIX;
import static dev.ratelimit.interceptor.config.SysConfigFields.DYN_PREFIX;
import static dev.ratelimit.interceptor.config.SysConfigFields.EXCEPTION_INFIX;
import static dev.ratelimit.interceptor.config.SysConfigFields.GLOBAL_CHECK;
import static dev.ratelimit.interceptor.config.SysConfigFields.GLOBAL_MODE;
import static dev.ratelimit.interceptor.config.SysConfigFields.INTERVAL_SUFFIX;
import static dev.ratelimit.interceptor.config.SysConfigFields.LOG_CHECK;
import static dev.ratelimit.interceptor.config.SysConfigFields.MODE_SUFFIX;
import static dev.ratelimit.interceptor.config.SysConfigFields.PLAN_INFIX;
import static dev.ratelimit.interceptor.config.SysConfigFields.WHITELIST_IPS;
import static dev.ratelimit.interceptor.config.SysConfigFields.WHITELIST_USERS;

import dev.ratelimit.interceptor.InvalidValueException;
import dev.ratelimit.interceptor.identity.CidrBlock;
import dev.ratelimit.interceptor.identity.Whitelist;
import dev.ratelimit.interceptor.rule.LimitDefinition;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

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

    /**
     * {@code <ruleId>.count}: requests admitted per window, in place of the annotation's. Checked with the
     * window in force as the annotation is checked at start-up.
     */
    public SysConfigChange setRuleCount(String ruleId, String count) {
        return setRuleLimit(ruleId, count, null).get(0);
    }

    /** {@code <ruleId>.interval}: the window in seconds, in place of the annotation's; checked with the count in force. */
    public SysConfigChange setRuleInterval(String ruleId, String intervalSeconds) {
        return setRuleLimit(ruleId, null, intervalSeconds).get(0);
    }

    /**
     * {@code <ruleId>.count} and {@code <ruleId>.interval} together, checked together before either is
     * written, as the annotation's are: a pair the limiter would not apply as written is refused.
     * {@code null} keeps the value in force (or declared) of that knob.
     *
     * @return the changes written, count first
     */
    public List<SysConfigChange> setRuleLimit(String ruleId, String count, String intervalSeconds) {
        String countField = ruleField(ruleId, COUNT_SUFFIX);
        String intervalField = ruleField(ruleId, INTERVAL_SUFFIX);
        Map<String, String> hash = repository.readAll();
        String newCount = count == null ? null : positive(countField, count);
        String newInterval = intervalSeconds == null ? null : positive(intervalField, intervalSeconds);
        long checkedCount = Long.parseLong(newCount != null ? newCount : inForce(hash, countField));
        long checkedInterval = Long.parseLong(newInterval != null ? newInterval : inForce(hash, intervalField));
        try {
            LimitDefinition.check(checkedCount, checkedInterval);
        } catch (IllegalArgumentException e) {
            throw refused(ruleId, e);
        }
        List<SysConfigChange> changes = new ArrayList<>(2);
        if (newCount != null) {
            changes.add(write(countField, newCount));
        }
        if (newInterval != null) {
            changes.add(write(intervalField, newInterval));
        }
        return changes;
    }

    /**
     * Sets each knob of a rule ({@code check}, {@code count}, {@code interval}, {@code mode}) back to what
     * the app declares ({@code declared.<knob>}), so that later deploys change it again.
     *
     * @return the knobs that changed
     * @throws IllegalArgumentException when no app declared the rule
     */
    public List<SysConfigChange> resetToDeclared(String ruleId) {
        String id = checkedId(ruleId);
        Map<String, String> hash = repository.readAll();
        List<SysConfigChange> changes = new ArrayList<>();
        boolean declared = false;
        for (String suffix : List.of(CHECK_SUFFIX, COUNT_SUFFIX, INTERVAL_SUFFIX, MODE_SUFFIX)) {
            String knob = id + suffix;
            String value = hash.get(DECLARED_PREFIX + knob);
            if (value != null) {
                declared = true;
                if (!value.equals(hash.get(knob))) {
                    changes.add(write(knob, value));
                }
            }
        }
        if (!declared) {
            throw new InvalidValueException("ratelimit.config.notDeclared", LimitSpec.abbreviate(id));
        }
        return changes;
    }

    /** A knob's value in force: the hash's when it parses, else its declaration, else 1. */
    private static String inForce(Map<String, String> hash, String knob) {
        for (String value : new String[] {hash.get(knob), hash.get(DECLARED_PREFIX + knob)}) {
            try {
                return Long.toString(SysConfigParser.parsePositive(value));
            } catch (IllegalArgumentException e) {
                // absent or garbage: the next source
            }
        }
        return "1";
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
        return remove(DYN_PREFIX + present(endpointId, "endpointId"));
    }

    /** {@code dynuri.<pattern>}: limits every path the Ant pattern matches; {@code limit} as for a {@code dyn} rule. */
    public SysConfigChange setUriRule(String pattern, String limit) {
        String checked = present(pattern, "pattern");
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
        return remove(DYNURI_PREFIX + present(pattern, "pattern"));
    }

    /**
     * {@code <ruleId>.block}: the penalty of a client the rule denied, in place of the annotation's:
     * {@code <seconds>}, {@code <first>..<longest>} (doubling for repeat offenders), or {@code 0} for none.
     */
    public SysConfigChange setRulePenalty(String ruleId, String blocks) {
        String field = ruleField(ruleId, BLOCK_SUFFIX);
        try {
            return write(field, LimitSpec.formatBlocks(LimitSpec.parseBlocks(blocks)));
        } catch (IllegalArgumentException e) {
            throw refused(field, e);
        }
    }

    /** Removes {@code <ruleId>.block}: the rule's penalty is the annotation's again. */
    public SysConfigChange removeRulePenalty(String ruleId) {
        return remove(ruleField(ruleId, BLOCK_SUFFIX));
    }

    /**
     * {@code <ruleId>.plan.<plan>}: the count and window, {@code <count>/<interval>}, of one plan of a rule
     * whose annotation resolves plans ({@code @RateLimit(plan = ...)}).
     */
    public SysConfigChange setPlanLimit(String ruleId, String plan, String limit) {
        String field = ruleField(ruleId, PLAN_INFIX + planName(plan));
        return write(field, rate(field, limit).format());
    }

    public SysConfigChange removePlanLimit(String ruleId, String plan) {
        return remove(ruleField(ruleId, PLAN_INFIX + present(plan, "plan")));
    }

    /**
     * {@code <ruleId>.exception.<identity>}: until {@code until}, the client of this identity (what its
     * counter key names: a user code, an address...) gets {@code limit} ({@code <count>/<interval>}),
     * whatever its plan. Refused when it has already ended, or when the hash holds
     * {@link SysConfigParser#MAX_EXCEPTIONS} exceptions.
     */
    public SysConfigChange setException(String ruleId, String identity, String limit, Instant until) {
        String field = ruleField(ruleId, EXCEPTION_INFIX + identity(identity));
        LimitSpec rate = rate(field, limit);
        if (until == null || !until.isAfter(Instant.now())) {
            throw new InvalidValueException("ratelimit.config.exception.ended", String.valueOf(until))
                    .about(LimitSpec.abbreviate(field));
        }
        Map<String, String> hash = repository.readAll();
        long exceptions = hash.keySet().stream().filter(name -> name.contains(EXCEPTION_INFIX)).count();
        if (!hash.containsKey(field) && exceptions >= SysConfigParser.MAX_EXCEPTIONS) {
            throw new InvalidValueException("ratelimit.config.exception.tooMany", SysConfigParser.MAX_EXCEPTIONS)
                    .about(LimitSpec.abbreviate(field));
        }
        return write(field, new IdentityException(rate.count(), rate.intervalSeconds(), until).format());
    }

    public SysConfigChange removeException(String ruleId, String identity) {
        return remove(ruleField(ruleId, EXCEPTION_INFIX + present(identity, "identity")));
    }

    /**
     * Deletes a counter, so its client starts afresh, and has every instance forget the denials it
     * remembered of it (the near cache) at once.
     *
     * @param counterKey the whole key, e.g. {@code ratelimit:counter:shop:OrderController.create:USER:alice}
     * @return whether the counter existed
     */
    public boolean resetCounter(String counterKey) {
        return repository.resetCounter(present(counterKey, "counterKey"));
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
        String checked = present(id, "ruleId");
        int dot = checked.indexOf('.');
        if (dot <= 0 || dot == checked.length() - 1 || checked.length() > MAX_ID_LENGTH
                || checked.chars().anyMatch(c -> c <= ' ' || c == 0x7f)) {
            throw new InvalidValueException("ratelimit.config.ruleId", LimitSpec.abbreviate(checked), MAX_ID_LENGTH);
        }
        if (checked.startsWith(DYN_PREFIX) || checked.startsWith(DYNURI_PREFIX)) {
            throw new InvalidValueException("ratelimit.config.ruleId.prefix", LimitSpec.abbreviate(checked));
        }
        return checked;
    }

    /** @param what the kind of value, as in the message key {@code ratelimit.config.required.<what>} */
    private static String present(String value, String what) {
        if (value == null || value.isEmpty()) {
            throw new InvalidValueException("ratelimit.config.required." + what);
        }
        return value;
    }

    private static String positive(String field, String value) {
        try {
            return Long.toString(SysConfigParser.parsePositive(value));
        } catch (InvalidValueException e) {
            throw e.about(LimitSpec.abbreviate(field));
        }
    }

    /** A plan's or an exception's {@code <count>/<interval>}: who is counted is the rule's own. */
    private static LimitSpec rate(String field, String value) {
        try {
            LimitSpec parsed = LimitSpec.parse(value);
            return new LimitSpec(parsed.count(), parsed.intervalSeconds());
        } catch (IllegalArgumentException e) {
            throw refused(field, e);
        }
    }

    private static String planName(String plan) {
        String checked = present(plan, "plan");
        if (!checked.matches("[A-Za-z0-9_-]{1,64}")) {
            throw new InvalidValueException("ratelimit.config.planName", LimitSpec.abbreviate(checked));
        }
        return checked;
    }

    private static String identity(String identity) {
        String checked = present(identity, "identity");
        if (checked.length() > MAX_ID_LENGTH || checked.chars().anyMatch(c -> c <= ' ' || c == 0x7f)) {
            throw new InvalidValueException("ratelimit.config.identity", LimitSpec.abbreviate(checked));
        }
        return checked;
    }

    private static String limitSpec(String field, String value) {
        try {
            return LimitSpec.parse(value).format();
        } catch (IllegalArgumentException e) {
            throw refused(field, e);
        }
    }

    private static IllegalArgumentException refused(String field, IllegalArgumentException cause) {
        return cause instanceof InvalidValueException invalid ? invalid.about(LimitSpec.abbreviate(field))
                : new IllegalArgumentException(LimitSpec.abbreviate(field) + ": " + cause.getMessage(), cause);
    }
}
