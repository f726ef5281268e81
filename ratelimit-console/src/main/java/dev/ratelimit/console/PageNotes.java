package dev.ratelimit.console;

import dev.ratelimit.console.access.HmacSigner;
import jakarta.servlet.http.HttpServletRequest;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * What a form's redirect tells the page it lands on (post/redirect/get): that something was saved, added,
 * removed or unblocked, or why the form was refused and what was typed into it. The notes travel as query
 * parameters with a signature of the console's {@link HmacSigner} over them, the operator who posted and
 * an end {@link #VALID} later, so a page shows only notes the console wrote for the operator reading it: a
 * link someone else made, changed or kept too long shows the page as it is, without them.
 */
public final class PageNotes {

    /** How long a redirect's notes show: long enough to reload the page, too short for a link to travel. */
    public static final Duration VALID = Duration.ofMinutes(5);
    /** The parameter of the signature: {@code <end in epoch seconds>.<HMAC>}. */
    static final String SIGNATURE = "notes";
    /** Values typed into a refused form come back as {@code typed.<field>}. */
    static final String TYPED = "typed.";
    static final String REFUSED = "refused";
    static final String REFUSED_FIELD = "refusedField";
    static final String REFUSED_ARGUMENT = "refusedArg";
    public static final String SAVED = "saved";
    public static final String UNBLOCKED = "unblocked";
    public static final String UNKNOWN = "unknown";
    public static final String ADDED = "added";
    public static final String REMOVED = "removed";
    public static final String IMPORTED = "imported";
    /** Every note; a parameter of another name is a page's own, and no note. */
    static final Set<String> NAMES = Set.of(REFUSED, REFUSED_FIELD, REFUSED_ARGUMENT, SAVED, UNBLOCKED, UNKNOWN,
            ADDED, REMOVED, IMPORTED);
    private static final String ATTRIBUTE = PageNotes.class.getName();
    private static final PageNotes NONE = new PageNotes(null, null, null, null);

    private final HttpServletRequest request;
    private final HmacSigner signer;
    private final String operator;
    private final Clock clock;
    private SortedMap<String, List<String>> signed;

    private PageNotes(HttpServletRequest request, HmacSigner signer, String operator, Clock clock) {
        this.request = request;
        this.signer = signer;
        this.operator = operator;
        this.clock = clock;
    }

    /** Gives a console request its operator's notes (the console filter does, once it knows the operator). */
    public static void attach(HttpServletRequest request, HmacSigner signer, String operator, Clock clock) {
        request.setAttribute(ATTRIBUTE, new PageNotes(request, signer, operator, clock));
    }

    /** The notes of a console request; none before the operator is known (the login page). */
    public static PageNotes of(HttpServletRequest request) {
        return request.getAttribute(ATTRIBUTE) instanceof PageNotes notes ? notes : NONE;
    }

    /** {@code redirect:} to {@code page} with one note. */
    public String redirect(String page, String name, Object value) {
        return redirect(page, Map.of(name, List.of(String.valueOf(value))));
    }

    /** {@code redirect:} to {@code page} with these notes, signed for this request's operator. */
    public String redirect(String page, Map<String, List<String>> notes) {
        if (signer == null) {
            throw new IllegalStateException("Notes without an operator: the console filter did not run");
        }
        notes.keySet().stream().filter(name -> !isNote(name)).findAny().ifPresent(name -> {
            throw new IllegalArgumentException("Not a page note: " + name);
        });
        SortedMap<String, List<String>> sorted = new TreeMap<>(notes);
        long end = clock.instant().plus(VALID).getEpochSecond();
        QueryString query = QueryString.of();
        sorted.forEach((name, values) -> values.forEach(value -> query.add(name, value)));
        query.add(SIGNATURE, end + "." + signer.sign(signed(end, sorted)));
        return "redirect:" + query.appendTo(page);
    }

    /** Whether the page has this note. */
    public boolean has(String name) {
        return signed().containsKey(name);
    }

    /** The note's first value, or {@code null}. */
    public String first(String name) {
        List<String> values = signed().get(name);
        return values == null ? null : values.get(0);
    }

    /** The note's values, none when absent. */
    public List<String> all(String name) {
        return signed().getOrDefault(name, List.of());
    }

    /** The values typed into the refused form, by field. */
    public Map<String, String> typed() {
        return signed().entrySet().stream().filter(note -> note.getKey().startsWith(TYPED))
                .collect(Collectors.toMap(note -> note.getKey().substring(TYPED.length()), note -> note.getValue().get(0)));
    }

    /** The request's notes when they carry a signature for this operator that has not ended, else none. */
    private SortedMap<String, List<String>> signed() {
        if (signed == null) {
            signed = verified();
        }
        return signed;
    }

    private SortedMap<String, List<String>> verified() {
        SortedMap<String, List<String>> notes = new TreeMap<>();
        if (request == null) {
            return notes;
        }
        request.getParameterMap().forEach((name, values) -> {
            if (isNote(name)) {
                notes.put(name, List.of(values));
            }
        });
        String signature = request.getParameter(SIGNATURE);
        int dot = signature == null ? -1 : signature.indexOf('.');
        if (notes.isEmpty() || dot < 0) {
            return new TreeMap<>();
        }
        long end;
        try {
            end = Long.parseLong(signature.substring(0, dot));
        } catch (NumberFormatException e) {
            return new TreeMap<>();
        }
        boolean valid = clock.instant().getEpochSecond() <= end
                && signer.verify(signed(end, notes), signature.substring(dot + 1));
        return valid ? notes : new TreeMap<>();
    }

    /** The text signed: the operator, the end and every note, each part encoded so that none can pass for another. */
    private String signed(long end, SortedMap<String, List<String>> notes) {
        StringBuilder text = new StringBuilder("notes:").append(encode(operator)).append(':').append(end);
        notes.forEach((name, values) -> values.forEach(value -> text.append('&').append(encode(name)).append('=')
                .append(encode(value))));
        return text.toString();
    }

    private static boolean isNote(String name) {
        return NAMES.contains(name) || name.startsWith(TYPED);
    }

    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }
}
