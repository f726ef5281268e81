package dev.ratelimit.interceptor;

/** Whose requests one counter counts. */
public enum Dimension {
    /** Per user code (request parameter, session attribute, then the authenticated principal). No user, no limit. */
    USER,
    /** Per client IP address (forwarded headers only from trusted proxies). */
    IP,
    /** The endpoint as a whole, all callers together. */
    METHOD,
    /** All endpoints of the module that carry a GLOBAL limit, together. */
    GLOBAL,
    /** An identity computed by {@link RateLimit#key()}. */
    CUSTOM
}
