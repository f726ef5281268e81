-- Sets or removes one field of the config hash and announces the change, as one atomic step: an
-- instance that hears the announcement reads the new value, and the value returned is exactly the
-- one this write replaced (for the operator's audit trail), even with several editors at once.
-- KEYS[1]: the config hash
-- ARGV[1]: the field; ARGV[2]: the config-changed channel; ARGV[3]: the new value, absent to remove the field
-- Returns the previous value, nil when the field did not exist.
local old = redis.call('HGET', KEYS[1], ARGV[1])
if ARGV[3] then
    redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
else
    redis.call('HDEL', KEYS[1], ARGV[1])
end
redis.call('PUBLISH', ARGV[2], ARGV[1])
return old
