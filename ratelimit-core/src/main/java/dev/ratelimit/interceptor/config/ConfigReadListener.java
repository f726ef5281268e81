package dev.ratelimit.interceptor.config;

/**
 * Told each time an instance has read the config hash, on the reading thread: what else an instance keeps
 * in Redis (its declarations, its API index) is checked then, and put back too when the hash was lost.
 */
public interface ConfigReadListener {

    /**
     * @param inForce  the snapshot in force after the read
     * @param restored whether the hash had been lost and this instance just put it back
     */
    void configRead(RuleSnapshot inForce, boolean restored);
}
