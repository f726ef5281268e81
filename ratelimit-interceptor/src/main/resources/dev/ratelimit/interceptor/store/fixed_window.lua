-- Fixed window: a hash with field "count" and the window's start time "start"; the key's TTL is what is
-- left of the window. The window opens with the first request, or, for a calendar quota, is the period
-- that holds now. Denied requests are counted too once the window is full (the count goes past the
-- limit, which changes nothing: the window ends at the same time); a request too heavy for the room left
-- takes none of it.
local start = tonumber(redis.call('HGET', key, 'start'))
if start and (calendar_start and start ~= calendar_start or not calendar_start and now - start >= window) then
  -- The window is over though the key still exists: a new calendar period, or, for a window from the
  -- first request, only a clock given by a test or the few microseconds between Redis' expiry check
  -- and TIME get here.
  if not dry then
    redis.call('DEL', key)
  end
  start = nil
end
if dry then
  local used = start and tonumber(redis.call('HGET', key, 'count')) or 0
  local reset = start and used > 0 and (calendar_end or start + window) - now or 0
  local fits = used + cost <= limit
  return {fits and 1 or 0, math.max(0, limit - used), fits and 0 or reset, reset, now}
end
local count = redis.call('HINCRBY', key, 'count', cost)
if not start then
  start = calendar_start or now
  redis.call('HSET', key, 'start', start)
end
local reset = (calendar_end or start + window) - now
-- count == cost opens a new window. A key without TTL is an orphan (a manual write, a crash): without a
-- TTL it would block its identity forever, so it gets what is left of its window.
if count == cost or redis.call('PTTL', key) < 0 then
  redis.call('PEXPIRE', key, reset + expiry_slack)
end
if count <= limit then
  local remaining = limit - count
  return {1, remaining, remaining >= cost and 0 or reset, reset, now}
end
if count - cost < limit then
  redis.call('HINCRBY', key, 'count', -cost)
end
return {0, math.max(0, limit - count + cost), reset, reset, now}
