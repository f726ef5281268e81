package dev.ratelimit.console.rules;

/**
 * One annotated rule as the rules page shows it: the effective values from the config hash beside
 * the declared ones.
 */
public record RuleRow(String id, String pattern, String methods, String dimension, String algorithm, boolean enabled,
                      boolean shadow, String count, String interval, long declaredCount, long declaredInterval) {
}
