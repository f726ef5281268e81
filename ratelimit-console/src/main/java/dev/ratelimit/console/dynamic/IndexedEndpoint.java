package dev.ratelimit.console.dynamic;

/** An endpoint of the API index as the dynamic rules page lists it. */
public record IndexedEndpoint(String id, String pattern, String methods, boolean annotated) {

    /** What the searchable endpoint list shows for it. */
    public String label() {
        return pattern + (methods.isEmpty() ? "" : " [" + methods + "]") + " — " + id;
    }
}
