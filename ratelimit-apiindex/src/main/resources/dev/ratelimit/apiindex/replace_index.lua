-- Puts a freshly written index in place of a module's old one, in one atomic step: a reader sees the
-- old index or the new one, never a half-written or empty one, and an endpoint the app no longer
-- has is gone with the old index.
-- KEYS[1]: the staging hash written by this start; KEYS[2]: the module's index; KEYS[3]: the set of modules
-- ARGV[1]: the module; ARGV[2]: how many fields the staging hash must hold (0: the module has no endpoint)
local expected = tonumber(ARGV[2])
if expected == 0 then
    redis.call('DEL', KEYS[2])
    redis.call('SREM', KEYS[3], ARGV[1])
    return 0
end
-- A staging copy that expired or is short (a writer stalled past its TTL) must not replace a good index.
if redis.call('HLEN', KEYS[1]) ~= expected then
    return redis.error_reply('the staging copy of the API index of ' .. ARGV[1] .. ' is incomplete or expired')
end
redis.call('RENAME', KEYS[1], KEYS[2])
-- RENAME carries the staging TTL over; the index itself lives until the next start replaces it.
redis.call('PERSIST', KEYS[2])
redis.call('SADD', KEYS[3], ARGV[1])
return expected
