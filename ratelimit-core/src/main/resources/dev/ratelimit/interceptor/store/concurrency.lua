-- Concurrency: a sorted set of the leases of the requests running now, member the lease's id (ARGV[13],
-- unique across instances), score when it expires (ms); the window is the lease. A request is admitted
-- while fewer than limit leases are live, and holds its lease until it ends (concurrency_refund.lua) or,
-- should its instance die, until the lease expires: every instance renews the leases of its requests
-- still running (concurrency_renew.lua). A request takes one slot whatever it weighs; a denied one is
-- not recorded. A denial is final, for a penalty: the leases are requests running now, none pending.
local live = '(' .. now
if not dry then
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
end
local held = redis.call('ZCOUNT', key, live, '+inf')
local allowed = held < limit
if allowed and not dry then
  redis.call('ZADD', key, now + window, ARGV[13])
  held = held + 1
end
local remaining = limit - held
local wait = 0
local reset = 0
if held > 0 then
  reset = tonumber(redis.call('ZRANGE', key, -1, -1, 'WITHSCORES')[2]) - now
  if remaining < 1 then
    -- When a running request ends is unknown, so the wait is a guess, or less when the first lease
    -- expires sooner (its instance died holding it).
    local earliest = redis.call('ZRANGEBYSCORE', key, live, '+inf', 'WITHSCORES', 'LIMIT', 0, 1)
    wait = math.min(until_a_request_ends, tonumber(earliest[2]) - now)
  end
  expire_after(allowed, reset)
end
return {allowed and 1 or 0, math.max(0, remaining), wait, reset, now}
