package dev.ratelimit.interceptor.store;

/** One {@code EVALSHA}: the script's SHA-1, its keys (all in one Cluster slot), its arguments. */
record ScriptCall(String sha1, byte[][] keys, byte[][] args) {
}
