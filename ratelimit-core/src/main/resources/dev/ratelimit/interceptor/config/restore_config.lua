-- Puts a copy of the config hash back (an instance's snapshot, or the database's copy) when the hash has
-- vanished (a Redis restarted without persistence, a flush, an eviction) or holds an older version
-- (a failover to a replica that lagged): atomically, and only then, so that instances holding different
-- copies do not fight and the newest wins. Announces the restore.
-- KEYS[1]: the config hash
-- ARGV[1]: the config-changed channel; ARGV[2]: the copy's version; ARGV[3..]: field, value, ... of the copy
-- Returns 1 when the copy was put back, 0 when the hash was kept (as new as the copy, or newer).
local copy = tonumber(ARGV[2])
if redis.call('EXISTS', KEYS[1]) == 1 then
    local version = tonumber(redis.call('HGET', KEYS[1], 'config.version') or '0') or 0
    if version >= copy then
        return 0
    end
end
redis.call('DEL', KEYS[1])
for i = 3, #ARGV, 2000 do
    redis.call('HSET', KEYS[1], unpack(ARGV, i, math.min(i + 1999, #ARGV)))
end
redis.call('HSET', KEYS[1], 'config.version', ARGV[2])
redis.call('PUBLISH', ARGV[1], 'restored')
return 1
