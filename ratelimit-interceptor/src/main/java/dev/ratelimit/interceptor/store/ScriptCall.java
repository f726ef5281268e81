package dev.ratelimit.interceptor.store;

/** One {@code EVALSHA} with one key: the script's SHA-1, the key, the arguments. */
record ScriptCall(String sha1, byte[] key, byte[][] args) {

    /** The key, then the arguments, as Spring Data's {@code evalSha} takes them. */
    byte[][] keyAndArgs() {
        byte[][] keyAndArgs = new byte[args.length + 1][];
        keyAndArgs[0] = key;
        System.arraycopy(args, 0, keyAndArgs, 1, args.length);
        return keyAndArgs;
    }
}
