-- Sliding window: two fixed windows aligned to multiples of the window length, the previous one
-- weighted by how much of it the sliding window still covers. A hash: "w" the current window's number
-- (now // window), "c" its count, "p" the previous window's count. Three numbers per key whatever the
-- limit. Admitted iff  p * (window - elapsed) / window + c + cost <= limit, kept in integers (no drift):
--   p * (window - elapsed) + (c + cost) * window <= limit * window
-- Only admitted requests are counted, so a client that keeps knocking is not locked out for longer.
local index = math.floor(now / window)
local state = redis.call('HMGET', key, 'w', 'c', 'p')
local stored = tonumber(state[1])
local current = tonumber(state[2]) or 0
local previous = tonumber(state[3]) or 0
if stored ~= index then
  previous = (stored == index - 1) and current or 0
  current = 0
end
local elapsed = now - index * window
local weighted = previous * (window - elapsed)
local allowed = weighted + (current + cost) * window <= limit * window
local units = 0
if allowed and not dry then
  current = current + cost
  units = batch_of(math.floor((limit * window - weighted) / window) - current)
  current = current + units
  redis.call('HSET', key, 'w', index, 'c', current, 'p', previous)
end
-- This window's count weighs until the end of the next window; the key is not needed after that.
local reset = 0
if current > 0 then
  reset = (index + 2) * window - now
elseif previous > 0 then
  reset = (index + 1) * window - now
end
expire_after(allowed, (index + 2) * window - now)
local remaining = math.max(0, math.floor((limit * window - weighted) / window) - current)
local wait = 0
if remaining < cost then
  local room = (limit - current - cost) * window
  if room < 0 then
    -- This window's count leaves no room for the cost: the next window admits once this one's weight
    -- has dropped enough, once  current * (window - e) <= (limit - cost) * window.
    wait = window - elapsed + window - math.floor((limit - cost) * window / current)
  else
    -- Admitted once  previous * (window - elapsed - wait) <= room.
    wait = window - elapsed - math.floor(room / previous)
  end
end
if allowed then
  return admission(remaining, wait, reset, units, index, (index + 1) * window - now)
end
-- A refund gives back only within the current fixed window.
return {0, remaining, wait, reset, now, final(index * window, function(pending)
  return weighted + (current - pending + cost) * window <= limit * window
end) and 1 or 0}
