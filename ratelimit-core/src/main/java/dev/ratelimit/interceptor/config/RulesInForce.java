package dev.ratelimit.interceptor.config;

import dev.ratelimit.interceptor.InvalidValueException;
import dev.ratelimit.interceptor.QuotaPeriod;
import dev.ratelimit.interceptor.rule.CalendarQuota;
import dev.ratelimit.interceptor.rule.Endpoint;
import dev.ratelimit.interceptor.rule.LimitDefinition;
import dev.ratelimit.interceptor.rule.RequestCost;
import dev.ratelimit.interceptor.rule.RuleId;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * The one answer to "which rules are in force, and how": the endpoints' declared limits with what the
 * config hash says of them (switches, counts, windows, penalties, modes), the dynamic rules, and each
 * client's plan or exception. Immutable, made once per config snapshot: the request path, the
 * allowance service, the actuator endpoint, the console and the rules document all ask it, so none of
 * them works out a rule on its own.
 *
 * <p>The limits of each endpoint are worked out here once per snapshot, so a request only looks them up.
 */
public final class RulesInForce {

    private final RuleSnapshot snapshot;
    private final Set<String> modules;
    private final List<Endpoint> endpoints;
    private final Map<RuleId, Endpoint> endpointsById;
    /** Each annotated endpoint's limits in force, those switched off left out. */
    private final Map<RuleId, List<LimitDefinition>> endpointLimits;
    /** Each annotated rule's declaration and limit in force, switched off or not. */
    private final Map<RuleId, Declared> annotated;
    /** Each endpoint's {@code dyn} limit in force, switched off or not. */
    private final Map<RuleId, LimitDefinition> dynamic;
    /** By module and pattern, each {@code dynuri} limit in force, switched off or not. */
    private final Map<String, Map<String, LimitDefinition>> uri;
    /** What a request finds: each {@code dyn} rule's, and by module and pattern each {@code dynuri} rule's, limits. */
    private final Map<RuleId, List<LimitDefinition>> dynamicLimits;
    private final Map<String, Map<String, List<LimitDefinition>>> uriLimits;
    private final Map<String, Unapplied> unapplied;
    private volatile @Nullable Described described;

    private RulesInForce(RuleSnapshot snapshot, Set<String> modules, List<Endpoint> endpoints) {
        this.snapshot = snapshot;
        this.modules = Set.copyOf(modules);
        this.endpoints = List.copyOf(endpoints);
        Map<RuleId, Endpoint> byId = new HashMap<>();
        Map<RuleId, List<LimitDefinition>> limits = new HashMap<>();
        Map<RuleId, LimitDefinition> firstDeclared = new LinkedHashMap<>();
        Map<RuleId, List<Endpoint>> sharing = new HashMap<>();
        for (Endpoint endpoint : endpoints) {
            byId.put(endpoint.id(), endpoint);
            if (endpoint.isAnnotated()) {
                limits.put(endpoint.id(), enabledLimits(endpoint));
                for (LimitDefinition declared : endpoint.limits()) {
                    firstDeclared.putIfAbsent(declared.id(), declared);
                    sharing.computeIfAbsent(declared.id(), id -> new ArrayList<>()).add(endpoint);
                }
            }
        }
        Map<RuleId, Declared> rules = new LinkedHashMap<>();
        firstDeclared.forEach((id, declared) -> rules.put(id,
                new Declared(List.copyOf(sharing.get(id)), declared, inForce(declared))));
        this.endpointsById = Map.copyOf(byId);
        this.endpointLimits = Map.copyOf(limits);
        this.annotated = rules;
        Map<RuleId, LimitDefinition> dyn = new HashMap<>();
        Map<String, Unapplied> notApplied = new TreeMap<>();
        Map<String, List<RuleId>> endpointsByText = new HashMap<>();
        byId.keySet().forEach(id -> endpointsByText.computeIfAbsent(id.toString(), text -> new ArrayList<>(1)).add(id));
        snapshot.dynamicRules().forEach((text, spec) -> {
            List<RuleId> named = endpointsByText.getOrDefault(text, List.of());
            if (named.size() > 1) {
                notApplied.put(SysConfigFields.DYN_PREFIX + text, new Unapplied(named.get(0), spec.format(),
                        new InvalidValueException("ratelimit.config.ambiguousRule", text, named.get(0).module(),
                                named.get(1).module())));
                return;
            }
            RuleId id = named.isEmpty() ? RuleId.parse(text, this.modules) : named.get(0);
            if (id == null) {
                return; // another app's endpoint
            }
            Endpoint endpoint = byId.get(id);
            if (endpoint == null) {
                notApplied.put(SysConfigFields.dyn(id), new Unapplied(id, spec.format(),
                        new InvalidValueException("ratelimit.config.unknownEndpoint", id)));
            } else if (endpoint.isAnnotated()) {
                notApplied.put(SysConfigFields.dyn(id), new Unapplied(id, spec.format(),
                        new InvalidValueException("ratelimit.config.annotatedEndpoint", id)));
            } else {
                dyn.put(id, dynamicLimit(id, spec));
            }
        });
        this.dynamic = Map.copyOf(dyn);
        this.dynamicLimits = enabledOnly(dynamic);
        this.unapplied = notApplied;
        Map<String, Map<String, LimitDefinition>> byModule = new HashMap<>();
        Map<String, Map<String, List<LimitDefinition>>> limitsByModule = new HashMap<>();
        for (String module : this.modules) {
            Map<String, LimitDefinition> patterns = new HashMap<>();
            for (UriRule rule : snapshot.uriRules()) {
                patterns.put(rule.pattern(), dynamicLimit(RuleId.of(module, rule.pattern()), rule.limit()));
            }
            byModule.put(module, Map.copyOf(patterns));
            limitsByModule.put(module, enabledOnly(patterns));
        }
        this.uri = Map.copyOf(byModule);
        this.uriLimits = Map.copyOf(limitsByModule);
    }

    /**
     * The rules of {@code endpoints} under {@code snapshot}.
     *
     * @param modules the modules the endpoints belong to: the app's own, or every module of the API index
     */
    public static RulesInForce of(Collection<Endpoint> endpoints, Collection<String> modules, RuleSnapshot snapshot) {
        List<Endpoint> sorted = new ArrayList<>(endpoints);
        sorted.sort(Comparator.comparing(Endpoint::id));
        return new RulesInForce(snapshot, Set.copyOf(modules), sorted);
    }

    public RuleSnapshot snapshot() {
        return snapshot;
    }

    /**
     * The rules as they would be with one more field in the hash, for a preview: what the request path
     * would do, asked of the code it runs.
     */
    public RulesInForce with(String field, String value) {
        Map<String, String> fields = new HashMap<>(snapshot.fields());
        fields.put(field, value);
        return new RulesInForce(SysConfigParser.parse(fields, snapshot.loadedAt(), warning -> { }), modules, endpoints);
    }

    public Set<String> modules() {
        return modules;
    }

    /** The endpoints, by id. */
    public List<Endpoint> endpoints() {
        return endpoints;
    }

    public Optional<Endpoint> endpoint(RuleId id) {
        return Optional.ofNullable(endpointsById.get(id));
    }

    /**
     * The limits in force for a request to {@code endpoint} at {@code path}: its {@code @RateLimit}s with
     * their overrides; else its {@code dyn} rule; else the most specific matching {@code dynuri} rule. A
     * rule switched off is left out.
     *
     * @param path the request's path within the application, asked only when a {@code dynuri} rule may apply
     */
    public List<LimitDefinition> limits(Endpoint endpoint, Supplier<String> path) {
        if (endpoint.isAnnotated()) {
            List<LimitDefinition> limits = endpointLimits.get(endpoint.id());
            return limits != null ? limits : enabledLimits(endpoint); // an endpoint registered after this was made
        }
        if (!dynamic.isEmpty() && dynamic.containsKey(endpoint.id())) {
            return dynamicLimits.getOrDefault(endpoint.id(), List.of());
        }
        if (snapshot.uriRules().isEmpty()) {
            return List.of();
        }
        UriRule rule = snapshot.uriRule(path.get());
        Map<String, List<LimitDefinition>> ofModule = uriLimits.get(endpoint.id().module());
        return rule == null || ofModule == null ? List.of() : ofModule.getOrDefault(rule.pattern(), List.of());
    }

    /** Every {@code dynuri} rule, which every app applies: its limit by pattern, sorted. */
    public SortedMap<String, String> uriRules() {
        SortedMap<String, String> rules = new TreeMap<>();
        snapshot.uriRules().forEach(rule -> rules.put(rule.pattern(), rule.limit().format()));
        return rules;
    }

    /** The {@code dynuri} pattern that applies to {@code path}: the most specific that matches. */
    public Optional<String> uriPattern(String path) {
        return Optional.ofNullable(snapshot.uriRule(path)).map(UriRule::pattern);
    }

    /** Whether a {@code dynuri} pattern matches a path, as the request path matches them. */
    public static boolean matches(String pattern, String path) {
        return RuleSnapshot.PATH_MATCHER.match(pattern, path);
    }

    /** An annotated rule's limit in force, or empty when no endpoint declares it or it is switched off. */
    public Optional<LimitDefinition> limit(RuleId id) {
        Declared rule = annotated.get(id);
        return rule == null || !snapshot.override(id).enabled() ? Optional.empty() : Optional.of(rule.inForce());
    }

    /**
     * The endpoint that declares an annotated rule, or that a rule defined in code is; empty when no endpoint
     * declares it.
     */
    public Optional<Endpoint> declaring(RuleId id) {
        return Optional.ofNullable(annotated.get(id)).map(Declared::endpoint);
    }

    /** Whether a client's plan decides its limit: the rule resolves plans and the hash gives some. */
    public boolean resolvesPlans(LimitDefinition limit) {
        return !limit.plan().isEmpty() && !snapshot.plans().isEmpty();
    }

    /**
     * The limit of one client: an operator's exception for it, else its plan's, else the rule's. The
     * counter stays the same, so a client that changes plan keeps what it used; a calendar quota keeps
     * its period, only its count changes.
     *
     * @param plan the client's plan, when {@link #resolvesPlans}; else {@code null}
     */
    public LimitDefinition forClient(LimitDefinition limit, String identity, @Nullable String plan, Clock clock) {
        IdentityException exception = snapshot.exception(limit.id(), identity, clock);
        if (exception != null) {
            return withLimit(limit, exception.count(), exception.windowSeconds());
        }
        LimitSpec planned = plan == null ? null : snapshot.plan(limit.id(), plan);
        return planned == null ? limit : withLimit(limit, planned.count(), planned.windowSeconds());
    }

    /** Whether any rule only watches: then {@link #shadow} must be asked of each. */
    public boolean anyShadow() {
        return snapshot.anyShadow();
    }

    /** Whether a hot counter of the limit may be counted in batches: not when an operator set {@code <rule>.batch=off}. */
    public boolean batchable(LimitDefinition limit) {
        return !snapshot.override(limit.id()).unbatched();
    }

    /** Whether a limit only watches: the whole limiter or its rule is in shadow mode. */
    public boolean shadow(LimitDefinition limit) {
        return snapshot.shadow(limit.id());
    }

    /** Every rule, described: the annotated ones by id, then the {@code dyn} rules, then the {@code dynuri} rules. */
    public List<RuleDescription> rules() {
        return described().list();
    }

    public Optional<RuleDescription> rule(RuleId id) {
        return Optional.ofNullable(described().byId().get(id));
    }

    /**
     * The rule or endpoint a text names, {@code <module>.<rule>} as fields and forms write it, read against
     * the ids known here (every endpoint and every rule): the one known id spelt so; when none is, the text
     * split at the one module that starts it ({@link RuleId#parse}). Empty when it names nothing, and when it
     * is ambiguous: two known ids are spelt so (module {@code demo}'s rule {@code A.b} and module
     * {@code demo.A}'s rule {@code b}), or two modules start it.
     */
    public Optional<RuleId> resolve(String text) {
        List<RuleId> known = described().byText().getOrDefault(text, List.of());
        return known.size() > 1 ? Optional.empty()
                : Optional.ofNullable(known.isEmpty() ? RuleId.parse(text, modules) : known.get(0));
    }

    /**
     * Whether {@code id} is one of the ids known here (an endpoint or a rule), and no other known id is spelt
     * as it is: then, and only then, the fields that name it are its own.
     */
    public boolean ownsItsFields(RuleId id) {
        return described().byText().getOrDefault(id.toString(), List.of()).equals(List.of(id));
    }

    /** The ids known here spelt as {@code id} is, itself first if it is known: more than one when they share their fields. */
    public List<RuleId> speltAs(RuleId id) {
        List<RuleId> known = new ArrayList<>(described().byText().getOrDefault(id.toString(), List.of()));
        known.sort(Comparator.comparing((RuleId other) -> !other.equals(id)));
        return known;
    }

    /** Made on first use: the request path never asks for descriptions. Two threads may both make the same value. */
    private Described described() {
        Described made = described;
        if (made == null) {
            made = describeAll();
            described = made;
        }
        return made;
    }

    /** The {@code dyn} rules of these modules that limit nothing, by field, with the reason. */
    public Map<String, Unapplied> unappliedDynamicRules() {
        return unapplied;
    }

    /**
     * A {@code dyn} rule that limits nothing: its endpoint is unknown, or has {@code @RateLimit}.
     *
     * @param limit the field's value, in its canonical form
     */
    public record Unapplied(RuleId endpoint, String limit, InvalidValueException reason) {
    }

    private Described describeAll() {
        List<RuleDescription> described = new ArrayList<>();
        annotated.forEach((id, rule) -> described.add(describe(id, RuleDescription.Source.ANNOTATION, rule.endpoint(),
                rule.endpoint().limitsFromClass(), rule.patterns(), rule.httpMethods(), rule.declared(), rule.inForce())));
        new TreeMap<>(dynamic).forEach((id, limit) -> {
            Endpoint endpoint = Objects.requireNonNull(endpointsById.get(id), "dyn holds known endpoints' rules only");
            described.add(describe(id, RuleDescription.Source.DYN, endpoint, false, endpoint.primaryPattern(),
                    httpMethods(List.of(endpoint)), null, limit));
        });
        for (UriRule rule : snapshot.uriRules().stream().sorted(Comparator.comparing(UriRule::pattern)).toList()) {
            for (Map<String, LimitDefinition> ofModule : new TreeMap<>(uri).values()) {
                LimitDefinition limit = Objects.requireNonNull(ofModule.get(rule.pattern()),
                        "each module has a limit for every dynuri rule");
                described.add(describe(limit.id(), RuleDescription.Source.DYNURI, null, false, rule.pattern(),
                        List.of(), null, limit));
            }
        }
        Map<RuleId, RuleDescription> byId = new HashMap<>();
        described.forEach(rule -> byId.put(rule.id(), rule));
        Map<String, List<RuleId>> byText = new HashMap<>();
        Stream.concat(endpointsById.keySet().stream(), byId.keySet().stream()).distinct().sorted().forEach(id ->
                byText.computeIfAbsent(id.toString(), text -> new ArrayList<>(1)).add(id));
        return new Described(List.copyOf(described), Map.copyOf(byId), Map.copyOf(byText));
    }

    /**
     * A rule as every view shows it. Each knob's value in force beside its declared one: a dynamic rule
     * declares no limit, only the defaults of its switch and mode; a knob is overridden where the two differ.
     */
    private RuleDescription describe(RuleId id, RuleDescription.Source source, @Nullable Endpoint endpoint,
                                     boolean onClass, String pattern, List<String> httpMethods,
                                     @Nullable LimitDefinition declared, LimitDefinition limit) {
        RuleOverride override = snapshot.override(id);
        Map<Knob, String> inForce = new EnumMap<>(Knob.class);
        Map<Knob, String> declaredValues = new EnumMap<>(Knob.class);
        List<Knob> overridden = new ArrayList<>();
        for (Knob knob : Knob.values()) {
            String value = knob.inForce(limit, override.value(knob));
            String asDeclared = declared != null ? knob.of(declared) : knob.setsLimit() ? null : knob.of(limit);
            inForce.put(knob, value);
            if (asDeclared != null) {
                declaredValues.put(knob, asDeclared);
                if (!asDeclared.equals(value)) {
                    overridden.add(knob);
                }
            }
        }
        SortedMap<String, String> plans = new TreeMap<>();
        snapshot.plans().getOrDefault(id.toString(), Map.of()).forEach((plan, spec) -> plans.put(plan, spec.format()));
        SortedMap<String, IdentityException> exceptions = new TreeMap<>(
                snapshot.exceptions().getOrDefault(id.toString(), Map.of()));
        SortedMap<String, String> ignored = new TreeMap<>();
        snapshot.ignored().forEach((field, reason) -> {
            if (isFieldOf(field, id)) {
                ignored.put(field, reason);
            }
        });
        if (declared != null) {
            override.applied(declared).notApplied().forEach((knob, reason) ->
                    ignored.put(knob.field(id), "does not fit the rule as declared: " + reason));
        }
        return new RuleDescription(id, source, endpoint == null ? Endpoint.Kind.HTTP : endpoint.kind(),
                endpoint == null || endpoint.isHttp() ? null : endpoint.handler(), onClass, pattern, httpMethods,
                endpoint == null || endpoint.maxWait().isZero() ? null : endpoint.maxWait().toMillis(),
                declared == null ? null : LimitDescription.of(declared), LimitDescription.of(limit), override.enabled(),
                override.shadow() ? RuleMode.SHADOW : RuleMode.ENFORCE, overridden, plans, exceptions, ignored, inForce,
                declaredValues);
    }

    private List<LimitDefinition> enabledLimits(Endpoint endpoint) {
        List<LimitDefinition> limits = new ArrayList<>(endpoint.limits().size());
        for (LimitDefinition declared : endpoint.limits()) {
            if (snapshot.override(declared.id()).enabled()) {
                limits.add(inForce(declared));
            }
        }
        return List.copyOf(limits);
    }

    private LimitDefinition inForce(LimitDefinition declared) {
        return snapshot.override(declared.id()).applyTo(declared);
    }

    /** Each limit switched on, as the one-limit list a request finds. */
    private <K> Map<K, List<LimitDefinition>> enabledOnly(Map<K, LimitDefinition> limits) {
        Map<K, List<LimitDefinition>> enabled = new HashMap<>();
        limits.forEach((key, limit) -> {
            if (snapshot.override(limit.id()).enabled()) {
                enabled.put(key, List.of(limit));
            }
        });
        return Map.copyOf(enabled);
    }

    /** Whether a field of the hash is one of a rule's own: a knob, a plan or an exception. */
    static boolean isFieldOf(String field, RuleId rule) {
        for (Knob knob : Knob.values()) {
            if (field.equals(knob.field(rule))) {
                return true;
            }
        }
        return field.startsWith(SysConfigFields.plan(rule, "")) || field.startsWith(SysConfigFields.exception(rule, ""));
    }

    private static LimitDefinition dynamicLimit(RuleId id, LimitSpec spec) {
        CalendarQuota quota = spec.period() == QuotaPeriod.NONE ? CalendarQuota.NONE
                : new CalendarQuota(spec.period(), null);
        return new LimitDefinition(id, spec.count(), spec.windowSeconds(), spec.dimension(), spec.algorithm(), "",
                LimitDefinition.DEFAULT_MESSAGE_KEY, "", spec.penalty(), RequestCost.ONE, quota, "");
    }

    /** A calendar quota keeps its period: only the count changes. */
    private static LimitDefinition withLimit(LimitDefinition limit, long count, long windowSeconds) {
        return limit.withLimit(count, limit.quota().isCalendar() ? limit.windowSeconds() : windowSeconds);
    }

    /**
     * An annotated rule: every endpoint that declares it, in the catalog's order (the methods under one
     * class-level rule, or methods that name the same rule), one counter for all of them.
     */
    private record Declared(List<Endpoint> sharedBy, LimitDefinition declared, LimitDefinition inForce) {

        /** The endpoint that declares it first, which the rule's description is made from. */
        Endpoint endpoint() {
            return sharedBy.get(0);
        }

        /** The primary patterns of the endpoints that share the rule, as one text. */
        String patterns() {
            return String.join(", ", sharedBy.stream().map(Endpoint::primaryPattern).distinct().toList());
        }

        List<String> httpMethods() {
            return RulesInForce.httpMethods(sharedBy);
        }
    }

    /** The HTTP methods of the endpoints, sorted; empty (every method) when one of them takes every method. */
    private static List<String> httpMethods(List<Endpoint> endpoints) {
        if (endpoints.stream().anyMatch(endpoint -> endpoint.httpMethods().isEmpty())) {
            return List.of();
        }
        return endpoints.stream().flatMap(endpoint -> endpoint.httpMethods().stream()).distinct().sorted().toList();
    }

    /** @param byText the known ids by their text: more than one where two modules' ids are spelt alike */
    private record Described(List<RuleDescription> list, Map<RuleId, RuleDescription> byId,
                             Map<String, List<RuleId>> byText) {
    }
}
