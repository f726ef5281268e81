package dev.ratelimit.console.access;

import java.util.Objects;
import java.util.Set;

/**
 * Who uses the console and what they may change: their name (what the audit trail records), their
 * role, and the modules they may change; no modules means every module. Whatever every app shares (the
 * switches, whitelists, deny list and URL-pattern rules) only an operator of every module may change.
 * Renders as the name.
 */
public record ConsoleOperator(String name, ConsoleRole role, Set<String> modules) {

    public ConsoleOperator {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(role, "role");
        modules = Set.copyOf(modules);
    }

    /** An operator of every module: what an access policy that names only the operator grants. */
    public static ConsoleOperator ofEveryModule(String name) {
        return new ConsoleOperator(name, ConsoleRole.OPERATOR, Set.of());
    }

    /** Whether they may change anything at all: the pages show forms only then. */
    public boolean mayChange() {
        return role == ConsoleRole.OPERATOR;
    }

    /**
     * Whether they may change the rules and clients of {@code module}; {@code null} stands for what every
     * app shares.
     */
    public boolean mayChange(String module) {
        return mayChange() && (modules.isEmpty() || module != null && modules.contains(module));
    }

    /** Whether they may change what every app shares. */
    public boolean mayChangeEveryModule() {
        return mayChange() && modules.isEmpty();
    }

    @Override
    public String toString() {
        return name;
    }
}
