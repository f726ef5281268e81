package dev.ratelimit.console.rules;

import java.util.List;

/**
 * One annotated rule as the rules page shows it: what is in force, as the limiter reads the config
 * hash, beside what the app declares.
 *
 * @param blockFor     the declared penalty, as the {@code <rule>.block} field writes it, with its unit
 * @param penalty      the operator's {@code <rule>.block} in force in its place, {@code null} for as declared
 * @param onClass      whether the {@code @RateLimit} is its controller class's, not the method's own
 * @param count        in force, or what the operator typed into a refused form
 * @param overridden   whether a knob differs from the declaration: an operator's value, kept across deploys
 * @param overriddenBy the operator who last changed one of its knobs, when the audit trail knows
 * @param overriddenAt when, in the log's zone
 * @param ignored      knobs the limiter does not apply, each as {@code <field>: <reason>}
 */
public record RuleRow(String id, String pattern, String methods, String dimension, String algorithm, String countWhen,
                      String blockFor, String penalty, String cost, String quota, String plan, boolean onClass, boolean enabled,
                      boolean shadow, String count, String interval, long declaredCount, long declaredInterval,
                      boolean overridden, String overriddenBy, String overriddenAt, List<String> ignored) {
}
