-- The fixed window of the common request, whole: one unit, on Redis' clock, without penalty, calendar quota,
-- batch, settlement or peek (counter_head.lua's first two arguments only). It decides exactly as the head, the
-- fixed window and the tail do for such a request (RedisRateLimitStoreTest holds the two side by side), in the same
-- hash, which refunds and charges read alike; it is apart because Redis' time per decision is mostly the script's
-- own Lua around its four calls (BENCHMARKS.md, "Redis' own time per decision"), and the common request needs none
-- of the options' functions.
-- KEYS[1] the counter key; ARGV[1] limit: requests per window; ARGV[2] window in milliseconds.
-- Returns {1, remaining, wait ms, reset ms, now ms} or {0, 0, wait ms, reset ms, now ms, the count}: see
-- counter_head.lua; a denial stays counted, and its count is the client's demand in the window.
local key = KEYS[1]
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local start = tonumber(redis.call('HGET', key, 'start'))
if start and now - start >= window then
  -- the window is over (or an operator shortened it): the next opens with this request
  redis.call('DEL', key)
  start = nil
end
local count = redis.call('HINCRBY', key, 'count', 1)
if not start then
  start = now
  redis.call('HSET', key, 'start', start)
end
local reset = start + window - now
-- A new window, or an orphan without TTL (a manual write, a crash), which gets what is left of its window.
if count == 1 or redis.call('PTTL', key) < 0 then
  redis.call('PEXPIRE', key, reset)
end
if count <= limit then
  local remaining = limit - count
  return {1, remaining, remaining >= 1 and 0 or reset, reset, now}
end
return {0, 0, reset, reset, now, count}
