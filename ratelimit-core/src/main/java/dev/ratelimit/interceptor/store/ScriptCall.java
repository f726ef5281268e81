package dev.ratelimit.interceptor.store;

/** One script call: the script (by its SHA-1, or whole where Redis lost it), its keys (all in one Cluster slot), its arguments. */
record ScriptCall(LuaScript script, byte[][] keys, byte[][] args) {
}
