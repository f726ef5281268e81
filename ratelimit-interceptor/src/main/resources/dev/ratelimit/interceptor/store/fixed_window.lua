-- Fixed window: one hash per counter with field "count"; the key's TTL is what is left of the window.
-- KEYS[1]  counter key
-- ARGV[1]  limit (requests per window)
-- ARGV[2]  window in milliseconds
-- Returns  {allowed 1|0, remaining, milliseconds until the window resets}
local count = redis.call('HINCRBY', KEYS[1], 'count', 1)
local ttl = redis.call('PTTL', KEYS[1])
-- count == 1 opens a new window. A key without TTL (ttl == -1) is an orphan: a crash or a manual
-- write left it behind, and without this it would block its identity forever. Both get the window.
if count == 1 or ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  ttl = tonumber(ARGV[2])
end
local limit = tonumber(ARGV[1])
if count <= limit then
  return {1, limit - count, ttl}
end
return {0, 0, ttl}
