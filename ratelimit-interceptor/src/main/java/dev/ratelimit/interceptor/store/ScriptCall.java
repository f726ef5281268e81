package dev.ratelimit.interceptor.store;

/** One {@code EVALSHA}: the script's SHA-1, its keys (all in one Cluster slot), its arguments. */
record ScriptCall(String sha1, byte[][] keys, byte[][] args) {

    /** The keys, then the arguments, as Spring Data's {@code evalSha} takes them. */
    byte[][] keysAndArgs() {
        byte[][] keysAndArgs = new byte[keys.length + args.length][];
        System.arraycopy(keys, 0, keysAndArgs, 0, keys.length);
        System.arraycopy(args, 0, keysAndArgs, keys.length, args.length);
        return keysAndArgs;
    }
}
