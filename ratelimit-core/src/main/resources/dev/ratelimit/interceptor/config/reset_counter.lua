-- Deletes one counter and its penalty, and announces it, as one atomic step: every instance forgets the
-- denials it remembered (its near cache) when it hears the announcement, so the client is free at once
-- everywhere.
-- KEYS[1]: the counter; KEYS[2]: its penalty hash; ARGV[1]: the config-changed channel; ARGV[2]: the announcement
-- Returns 1 when the counter or a penalty existed, else 0.
local deleted = redis.call('DEL', KEYS[1], KEYS[2])
redis.call('PUBLISH', ARGV[1], ARGV[2])
return math.min(deleted, 1)
