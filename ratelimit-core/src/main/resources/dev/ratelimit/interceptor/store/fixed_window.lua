-- Fixed window: a hash with field "count" and the window's start time "start"; the key's TTL is what is
-- left of the window (or, for a debt, of the windows that pay it off; see fixed_window_now.lua). The
-- window opens with the first request, or, for a calendar quota, is the period that holds now. Denied
-- requests are counted too once the window is full (the count goes past the limit, which changes nothing:
-- the window ends at the same time), but for a limit whose cost is settled; a request too heavy for the
-- room left takes none of it.
local start, used = window_now()
if dry then
  local reset = start and used > 0 and paid_off(start, used) - now or 0
  local fits = used + cost <= limit
  return {fits and 1 or 0, math.max(0, limit - used), fits and 0 or admits_at(start, used) - now, reset, now}
end
local count = redis.call('HINCRBY', key, 'count', cost)
if not start then
  start = calendar_start or now
  redis.call('HSET', key, 'start', start)
end
local reset = paid_off(start, count) - now
-- count == cost opens a new window. A key without TTL is an orphan (a manual write, a crash): without a
-- TTL it would block its identity forever, so it gets what is left of its window.
if count == cost or redis.call('PTTL', key) < 0 then
  redis.call('PEXPIRE', key, reset + expiry_slack)
end
if count <= limit then
  local units = settled and 0 or batch_of(limit - count)
  if units > 0 then
    count = redis.call('HINCRBY', key, 'count', units)
  end
  local remaining = limit - count
  return admission(remaining, remaining >= cost and 0 or reset, reset, units, start,
      (calendar_end or start + window) - now)
end
used = count - cost
local undone = settled or used < limit
if undone then
  redis.call('HINCRBY', key, 'count', -cost)
end
-- The units admitted in the window: the count beyond the limit is denied requests, but a settled one's debt.
local admitted = settled and used or math.min(used, limit)
-- The last element, the client's demand in the window, only when this denial stays counted (the limit advisor's).
return {0, math.max(0, limit - used), admits_at(start, used) - now, paid_off(start, used) - now, now,
  final(start, function(units) return admitted - units + cost <= limit end) and 1 or 0, (not undone) and count or nil}
