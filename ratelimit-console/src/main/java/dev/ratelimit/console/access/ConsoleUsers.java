package dev.ratelimit.console.access;

import dev.ratelimit.console.ConsoleProperties;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.security.crypto.factory.PasswordEncoderFactories;
import org.springframework.security.crypto.password.PasswordEncoder;

/**
 * The users of the built-in login: each a stored password, a role and modules. A stored password is a
 * hash in a format Spring Security's {@code DelegatingPasswordEncoder} reads ({@code {bcrypt}...},
 * {@code {pbkdf2}...}), so that hashes a team already keeps work as they are, or plain text: marked
 * {@code {noop}...}, or unmarked, which works but logs a warning at start-up.
 */
public final class ConsoleUsers {

    private static final Logger log = LoggerFactory.getLogger(ConsoleUsers.class);
    private static final Pattern ENCODED = Pattern.compile("^\\{[^}]+}");
    private static final String PLAIN_ID = "{noop}";

    private final PasswordEncoder encoder = PasswordEncoderFactories.createDelegatingPasswordEncoder();
    private final Map<String, Account> accounts;
    /**
     * Checked for a name nobody has, so that an unknown name takes as long to refuse as a wrong password:
     * a hash where there is one, the dearest check.
     */
    private final String decoy;

    private ConsoleUsers(Map<String, Account> accounts) {
        if (accounts.isEmpty()) {
            throw new IllegalArgumentException("The console's built-in login needs at least one user");
        }
        this.accounts = Map.copyOf(accounts);
        this.decoy = accounts.values().stream().map(Account::password).filter(stored -> !stored.startsWith(PLAIN_ID))
                .findFirst().orElse(accounts.values().iterator().next().password());
    }

    /**
     * The users of {@code ratelimit.console.users}, and the operator of every module that
     * {@code username}/{@code password} name when a password is given.
     *
     * @throws IllegalArgumentException when a user has no password, or the operator's name is also a user's
     */
    public static ConsoleUsers of(String username, String password, Map<String, ConsoleProperties.User> users) {
        Map<String, Account> accounts = new LinkedHashMap<>();
        if (password != null && !password.isBlank()) {
            accounts.put(username, account(username, password, ConsoleOperator.ofEveryModule(username)));
        }
        users.forEach((name, user) -> {
            if (accounts.containsKey(name)) {
                throw new IllegalArgumentException("ratelimit.console.users." + name
                        + " has the name of ratelimit.console.username: give one of them another name");
            }
            if (user.password() == null || user.password().isBlank()) {
                throw new IllegalArgumentException("ratelimit.console.users." + name + ".password is not set");
            }
            accounts.put(name, account(name, user.password(),
                    new ConsoleOperator(name, user.role(), Set.copyOf(user.modules()))));
        });
        return new ConsoleUsers(accounts);
    }

    private static Account account(String name, String password, ConsoleOperator operator) {
        boolean encoded = ENCODED.matcher(password).find();
        if (!encoded) {
            log.warn("Rate limit console: user '{}' has a plain-text password; store a hash instead, for example "
                    + "{bcrypt}... (see docs/console.md, Security), or write {noop}... to say it is meant", name);
        }
        return new Account(encoded ? password : PLAIN_ID + password, operator);
    }

    /** The operator whose password this is; {@code null} when the name or the password is wrong. */
    public ConsoleOperator authenticate(String name, String password) {
        Account account = accounts.get(String.valueOf(name));
        String stored = account == null ? decoy : account.password();
        boolean matches = stored.startsWith(PLAIN_ID)
                ? MessageDigest.isEqual(stored.substring(PLAIN_ID.length()).getBytes(StandardCharsets.UTF_8),
                        String.valueOf(password).getBytes(StandardCharsets.UTF_8))
                : encoder.matches(String.valueOf(password), stored);
        return matches && account != null ? account.operator() : null;
    }

    /** The user of this name as configured now; {@code null} when there is none. */
    public ConsoleOperator operator(String name) {
        Account account = accounts.get(name);
        return account == null ? null : account.operator();
    }

    /**
     * What the user's stored password is, for a mark that ends a user's sessions when it changes;
     * {@code null} when there is no such user.
     */
    String storedPassword(String name) {
        Account account = accounts.get(name);
        return account == null ? null : account.password();
    }

    private record Account(String password, ConsoleOperator operator) {
    }
}
