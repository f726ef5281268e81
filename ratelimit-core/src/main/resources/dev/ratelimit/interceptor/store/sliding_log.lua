-- Sliding log: a sorted set with one member per unit admitted (a request of cost n adds n), scored by its
-- time. Exact: a request is admitted iff its cost fits beside the units admitted in the window before
-- it. Memory grows with the limit (up to limit members per key); denied requests are not logged, so
-- knocking costs nothing.
-- Entries that left the window: removed, or, when peeking, skipped by their number.
local gone = 0
if dry then
  gone = redis.call('ZCOUNT', key, '-inf', now - window)
else
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
end
local count = redis.call('ZCARD', key) - gone
local allowed = count + cost <= limit
if allowed and not dry then
  -- A member must be unique or ZADD would only move an existing one: the time alone is not (two
  -- requests in one millisecond), and math.random is seeded the same in every script run.
  local sequence = count
  for _ = 1, cost do
    while redis.call('ZADD', key, 'NX', now, string.format('%d:%d', now, sequence)) == 0 do
      sequence = sequence + 1
    end
  end
  count = count + cost
end
local remaining = limit - count
local wait = 0
local reset = 0
if count > 0 then
  local newest = tonumber(redis.call('ZRANGE', key, -1, -1, 'WITHSCORES')[2])
  reset = newest + window - now
  if remaining < cost then
    -- A request of this cost is admitted once the oldest entry that leaves too little room goes.
    local oldest = gone + count + cost - limit - 1
    wait = tonumber(redis.call('ZRANGE', key, oldest, oldest, 'WITHSCORES')[2]) + window - now
  end
  expire_after(allowed, reset)
end
if allowed then
  return {1, math.max(0, remaining), wait, reset, now}
end
-- A refund gives back only entries still in the log.
return {0, math.max(0, remaining), wait, reset, now,
  final(now - window + 1, function(units) return count - units + cost <= limit end) and 1 or 0}
