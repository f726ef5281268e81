package dev.ratelimit.console.rules;

import java.util.List;

/** The annotated rules of one module that reported an API index. */
public record ModuleRules(String module, List<RuleLine> rules) {
}
