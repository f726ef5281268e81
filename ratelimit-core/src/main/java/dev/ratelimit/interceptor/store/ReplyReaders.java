package dev.ratelimit.interceptor.store;

/**
 * The threads that read a connection's replies, watched so that a wait in which they could not run is
 * not taken for a Redis that did not answer: a process starved of CPU runs the thread that waits (it
 * wakes with the scheduler's credit for having slept) long before the busy ones that read the socket.
 */
interface ReplyReaders extends AutoCloseable {

    /** Readers this process cannot watch: taken to run whenever the waiting thread does. */
    ReplyReaders UNWATCHED = new ReplyReaders() {
        @Override
        public void check() {
        }

        @Override
        public boolean ranSince(long nanoTime) {
            return true;
        }
    };

    /** Asks each reader to note when it next runs. Never waits. */
    void check();

    /** Whether every reader ran at or after {@code nanoTime} (of {@link System#nanoTime()}). */
    boolean ranSince(long nanoTime);

    /** Stops watching, when the connection closes. */
    @Override
    default void close() {
    }
}
