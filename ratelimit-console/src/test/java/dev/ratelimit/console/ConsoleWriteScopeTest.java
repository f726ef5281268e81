package dev.ratelimit.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.console.audit.AuditEntry;
import dev.ratelimit.console.audit.AuditTrail;
import dev.ratelimit.interceptor.fixture.FixtureApplication;
import dev.ratelimit.interceptor.testsupport.RedisServerProcess;
import java.lang.reflect.Method;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.assertj.core.api.SoftAssertions;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;
import org.yaml.snakeyaml.Yaml;

/**
 * Every write of the console (each POST mapping of its controllers, found in the running app) by every role
 * (a viewer, the operator of each of four modules whose names overlap: {@code fixture}, with a dot
 * {@code fixture.LimitedController}, as a prefix {@code fixtures}, in another case {@code Fixture}; and the operator
 * of every module), aimed at a rule of each module, and at a rule of one module spelt from another one's name
 * ({@code fixture.LimitedController} + {@code user} is written like {@code fixture}'s
 * {@code LimitedController.user}): a write is done exactly where the role may change the module that owns what it
 * writes, and is otherwise refused with 403, writes nothing and is in the audit trail. A form that only previews
 * ({@link ReadOnlyForm}) writes nothing for anyone. A new form is in the matrix without a new test.
 */
class ConsoleWriteScopeTest {

    private static final String CONSOLE = "/ratelimit-console";
    private static final String SYSCONFIG = "ratelimit:sysconfig";
    private static final String EVERY_MODULE = "*";
    /** The console's own module, and three whose names overlap with it. */
    private static final List<String> MODULES = List.of("fixture", "fixture.LimitedController", "fixtures", "Fixture");
    /** Fields every app shares: only the operator of every module writes them. */
    private static final List<String> SHARED = List.of("global.", "log.", "whitelist.", "dynuri.", "deny.");

    private static RedisServerProcess redis;
    private static ConfigurableApplicationContext console;
    private static final List<ConfigurableApplicationContext> others = new ArrayList<>();
    private static int attempt;
    private static final Map<String, ConsoleSession> sessions = new HashMap<>();

    @BeforeAll
    static void start() {
        redis = RedisServerProcess.start();
        List<String> users = new ArrayList<>(List.of(ConsoleSession.PASSWORD_PROPERTY,
                "ratelimit.console.users.watcher.password=" + ConsoleSession.PASSWORD));
        for (String module : MODULES) {
            String user = operatorOf(module);
            users.add("ratelimit.console.users." + user + ".password=" + ConsoleSession.PASSWORD);
            users.add("ratelimit.console.users." + user + ".role=operator");
            users.add("ratelimit.console.users." + user + ".modules=" + module);
        }
        console = FixtureApplication.start(redis.port(), users.toArray(String[]::new));
        for (String module : MODULES.subList(1, MODULES.size())) {
            others.add(FixtureApplication.start(redis.port(), "ratelimit.module=" + module,
                    "ratelimit.console.enabled=false"));
        }
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> MODULES.stream().allMatch(module ->
                redis.commands().exists("ratelimit:{apiindex}:" + module) == 1
                        && redis.commands().hexists(SYSCONFIG, "declared." + module + ".LimitedController.user.check")));
    }

    @AfterAll
    static void stop() {
        console.close();
        others.forEach(ConfigurableApplicationContext::close);
        redis.close();
    }

    @Test
    void everyWriteByEveryRoleIsDoneOrRefusedByTheModuleThatOwnsWhatItWrites() {
        SoftAssertions softly = new SoftAssertions();
        int refusals = 0;
        int writes = 0;
        int posts = 0;
        for (Form form : forms()) {
            for (Target target : targets()) {
                Effect byAdmin = attempt("admin", form, target);
                String owner = owner(form, target, byAdmin);
                if (EVERY_MODULE.equals(owner) && !target.equals(targets().get(0))) {
                    continue; // what every app shares is the same whichever rule the form names: asked once
                }
                for (String user : users()) {
                    Effect effect = attempt(user, form, target);
                    posts++;
                    String what = user + " posts " + form.path() + " at " + target;
                    if (form.readOnly() || owner == null && !user.equals("watcher")) {
                        softly.assertThat(effect.changed()).as(what + ": writes nothing").isEmpty();
                        softly.assertThat(effect.status()).as(what).isIn(200, 302, 403);
                    } else if (!user.equals("watcher") && (user.equals("admin") || operatorOf(owner).equals(user))) {
                        writes++;
                        softly.assertThat(effect.status()).as(what + ": done").isIn(200, 302);
                        softly.assertThat(!effect.changed().isEmpty() || effect.audited()).as(what + ": done")
                                .isTrue();
                        softly.assertThat(effect.refusedInTrail()).as(what + ": not refused").isFalse();
                    } else {
                        refusals++;
                        softly.assertThat(effect.status()).as(what + ": refused").isEqualTo(403);
                        softly.assertThat(effect.changed()).as(what + ": refused, writes nothing").isEmpty();
                        softly.assertThat(effect.refusedInTrail()).as(what + ": refused and audited").isTrue();
                    }
                }
            }
        }
        System.out.printf("FIGURES console write scope: %d forms x %d targets x %d roles (a form of what every app "
                + "shares at one target): %d posts, %d refused, %d done, the rest writing nothing%n", forms().size(),
                targets().size(), users().size(), posts, refusals, writes);
        softly.assertAll();
    }

    /**
     * What each module's operator set is exported under that module, and a document that replaces what one
     * module's operators set leaves the modules whose names overlap with it as they were.
     */
    @Test
    void exportAndReplaceKeepEachModulesFieldsUnderItsOwnName() {
        ConsoleSession admin = new ConsoleSession(FixtureApplication.port(console));
        assertThat(admin.login("admin", ConsoleSession.PASSWORD).statusCode()).isEqualTo(302);
        admin.get(CONSOLE + "/rules");
        for (int i = 0; i < MODULES.size(); i++) {
            String module = MODULES.get(i);
            assertThat(admin.post(CONSOLE + "/rules/knob", "module", module, "rule", "LimitedController.user", "knob",
                    "penalty", "value", Integer.toString(1000 + i)).statusCode()).isEqualTo(302);
            assertThat(admin.post(CONSOLE + "/dynamic/endpoint", "endpoint", module + ".OpenController.special",
                    "limit", (i + 1) + "/70").statusCode()).isEqualTo(302);
        }

        Map<String, Object> exported = new Yaml().load(admin.get(CONSOLE + "/rules/export").body());
        Map<?, ?> modules = (Map<?, ?>) exported.get("modules");
        for (int i = 0; i < MODULES.size(); i++) {
            @SuppressWarnings("unchecked")
            Map<String, Object> module = (Map<String, Object>) modules.get(MODULES.get(i));
            assertThat(module).as(MODULES.get(i)).containsKeys("LimitedController.user", "OpenController.special");
            assertThat(((Map<?, ?>) module.get("LimitedController.user")).get("penalty")).as(MODULES.get(i))
                    .isEqualTo(1000 + i);
            assertThat(((Map<?, ?>) module.get("OpenController.special")).get("limit")).as(MODULES.get(i))
                    .isEqualTo((i + 1) + "/70");
        }

        admin.get(CONSOLE + "/rules/import");
        String replace = "ratelimit-rules: 1\nmodules:\n  fixture: {}\n";
        HttpResponse<String> preview = admin.post(CONSOLE + "/rules/import/preview", "document", replace,
                "mode", "REPLACE");
        assertThat(preview.body()).contains("fixture.LimitedController.user.penalty")
                .doesNotContain("fixture.LimitedController.LimitedController.user.penalty")
                .doesNotContain("dyn.fixture.LimitedController.OpenController.special");
        assertThat(admin.post(CONSOLE + "/rules/import", "document", replace, "mode", "REPLACE", "version",
                redis.commands().hget(SYSCONFIG, "config.version")).statusCode()).isEqualTo(302);
        assertThat(redis.commands().hexists(SYSCONFIG, "fixture.LimitedController.user.penalty")).isFalse();
        assertThat(redis.commands().hexists(SYSCONFIG, "dyn.fixture.OpenController.special")).isFalse();
        for (String other : MODULES.subList(1, MODULES.size())) {
            assertThat(redis.commands().hexists(SYSCONFIG, other + ".LimitedController.user.penalty")).as(other).isTrue();
            assertThat(redis.commands().hexists(SYSCONFIG, "dyn." + other + ".OpenController.special")).as(other)
                    .isTrue();
        }
    }

    /**
     * Whom a write belongs to, by what it does for the operator of every module: the fields it writes are all
     * shared by every app ({@link #EVERY_MODULE}), or they are the rule's aimed at (its owner's), or it is an
     * unblock, the module's it names; {@code null} when even they cannot make it (a rule spelt from a module
     * that does not have it).
     */
    private static String owner(Form form, Target target, Effect byAdmin) {
        if (form.readOnly() || byAdmin.changed().isEmpty() && !byAdmin.audited()) {
            return null;
        }
        if (byAdmin.changed().isEmpty()) {
            return target.module();
        }
        return byAdmin.changed().stream().allMatch(ConsoleWriteScopeTest::shared) ? EVERY_MODULE : target.owner();
    }

    /**
     * One post of a form by a user, with values no attempt used before, after whatever it
     * removes or resets was put there by the operator of every module: what changed in the hash, and in the
     * audit trail.
     */
    private static Effect attempt(String user, Form form, Target target) {
        int n = ++attempt;
        String before = form.prepares();
        if (before != null) {
            post("admin", before, target, n); // the same names: what this attempt removes or resets
        }
        Map<String, String> hashBefore = redis.commands().hgetall(SYSCONFIG);
        List<AuditEntry> trailBefore = trail();
        HttpResponse<String> answer = post(user, form.path(), target, n);
        Map<String, String> hashAfter = redis.commands().hgetall(SYSCONFIG);
        List<AuditEntry> added = trail().stream().filter(entry -> !trailBefore.contains(entry))
                .filter(entry -> entry.operator().equals(user)).toList();
        Set<String> changed = new TreeSet<>();
        Stream.concat(hashBefore.keySet().stream(), hashAfter.keySet().stream())
                .filter(field -> !field.equals("config.version"))
                .filter(field -> !Objects.equals(hashBefore.get(field), hashAfter.get(field))).forEach(changed::add);
        return new Effect(answer.statusCode(), changed, added.stream().anyMatch(entry -> !entry.wasRefused()),
                added.stream().anyMatch(AuditEntry::wasRefused));
    }

    private static HttpResponse<String> post(String user, String path, Target target, int n) {
        ConsoleSession session = sessions.computeIfAbsent(user, name -> {
            ConsoleSession signedIn = new ConsoleSession(FixtureApplication.port(console));
            assertThat(signedIn.login(name, ConsoleSession.PASSWORD).statusCode()).as("login of " + name)
                    .isEqualTo(302);
            signedIn.get(CONSOLE + "/rules");
            return signedIn;
        });
        String version = redis.commands().hget(SYSCONFIG, "config.version");
        String document = "ratelimit-rules: 1\nmodules:\n  " + target.module() + ":\n    " + target.rule()
                + ":\n      count: " + (100 + n) + "\n";
        return session.post(CONSOLE + path, "module", target.module(), "rule", target.rule(),
                "enabled", Boolean.toString(n % 2 == 0), "shadow", "false", "global", Boolean.toString("0".equals(redis.commands().hget(SYSCONFIG, "global.check"))),
                "log", "true", "count", Integer.toString(100 + n), "interval", "60",
                "ips", "198.51.100." + (n % 250), "users", "u" + n,
                "knob", "penalty", "value", Integer.toString(60 + n), "plan", "p" + n,
                "limit", (n % 50 + 1) + "/60", "identity", "id" + n, "until", "2999-01-01T00:00",
                "endpoint", target.endpoint(), "pattern", "/scope/" + n + "/**",
                "kind", "ip", "target", "2001:db8::" + Integer.toHexString(n), "duration", "1h", "note", "",
                "member", "LimitedController.user:USER:x" + n,
                "document", document, "mode", "MERGE", "version", version == null ? "0" : version);
    }

    /**
     * Each rule aimed at: {@code LimitedController.user} of every module, and two rules spelt from a module that
     * does not have them, whose fields are another module's. The endpoint a {@code dyn} form names is the
     * owner's: the console reads that text against the endpoints it knows.
     */
    private static List<Target> targets() {
        List<Target> targets = new ArrayList<>();
        for (String module : MODULES) {
            targets.add(new Target(module, "LimitedController.user", module + ".OpenController.plain", module));
        }
        targets.add(new Target("fixture.LimitedController", "user", "fixture.OpenController.plain", "fixture"));
        targets.add(new Target("fixture", "LimitedController.LimitedController.user",
                "fixture.LimitedController.OpenController.plain", "fixture.LimitedController"));
        return targets;
    }

    /** Every form of the console's controllers but logging in and out, with what must be there before it. */
    private static List<Form> forms() {
        RequestMappingHandlerMapping mappings = console.getBean("requestMappingHandlerMapping",
                RequestMappingHandlerMapping.class);
        List<Form> forms = new ArrayList<>();
        Map<String, Method> byPath = new LinkedHashMap<>();
        mappings.getHandlerMethods().values().stream().map(HandlerMethod::getMethod)
                .filter(method -> method.getDeclaringClass().getPackageName().startsWith("dev.ratelimit.console"))
                .filter(method -> method.isAnnotationPresent(PostMapping.class))
                .forEach(method -> Stream.of(method.getAnnotation(PostMapping.class).value())
                        .forEach(path -> byPath.put(path, method)));
        new TreeSet<>(byPath.keySet()).forEach(path -> {
            if (!path.equals("/login") && !path.equals("/logout")) {
                forms.add(new Form(path, byPath.get(path).isAnnotationPresent(ReadOnlyForm.class), prepares(path)));
            }
        });
        return forms;
    }

    /**
     * The form that puts there what a form removes or resets: its sibling that adds or sets it; or, for a form that
     * adds only where nothing is, the one that removes it.
     */
    private static String prepares(String path) {
        if (path.endsWith("/delete")) {
            return path.substring(0, path.length() - "/delete".length());
        }
        return switch (path) {
            case "/deny-list/remove" -> "/deny-list/add";
            case "/rules/reset" -> "/rules/rule";
            case "/dynamic/observe" -> "/dynamic/endpoint/delete"; // observes only an endpoint without a rule
            default -> null;
        };
    }

    private static List<String> users() {
        List<String> users = new ArrayList<>(List.of("watcher"));
        MODULES.forEach(module -> users.add(operatorOf(module)));
        users.add("admin");
        return users;
    }

    /** The operator of one module, or of every module. */
    private static String operatorOf(String module) {
        return module.equals(EVERY_MODULE) ? "admin" : "op" + MODULES.indexOf(module);
    }

    private static boolean shared(String field) {
        return SHARED.stream().anyMatch(field::startsWith);
    }

    private static List<AuditEntry> trail() {
        return console.getBean(AuditTrail.class).recent(500);
    }

    /** A form of the console; {@code prepares} the form that must be posted first, or {@code null}. */
    private record Form(String path, boolean readOnly, String prepares) {
    }

    /** The module and rule a form names, the endpoint it names, and the module that owns their fields. */
    private record Target(String module, String rule, String endpoint, String owner) {

        @Override
        public String toString() {
            return module + " / " + rule + " (" + owner + "'s)";
        }
    }

    private record Effect(int status, Set<String> changed, boolean audited, boolean refusedInTrail) {
    }
}
