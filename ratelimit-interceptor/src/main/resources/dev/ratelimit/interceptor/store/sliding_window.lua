-- Sliding window: two fixed windows aligned to multiples of the window length, the previous one
-- weighted by how much of it the sliding window still covers. A hash: "w" the current window's number
-- (now // window), "c" its count, "p" the previous window's count. Three numbers per key whatever the
-- limit. Admitted iff  p * (window - elapsed) / window + c + 1 <= limit, kept in integers (no drift):
--   p * (window - elapsed) + (c + 1) * window <= limit * window
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
local allowed = weighted + (current + 1) * window <= limit * window
if allowed then
  current = current + 1
  redis.call('HSET', key, 'w', index, 'c', current, 'p', previous)
end
-- This window's count weighs until the end of the next window; the key is not needed after that.
local reset = 0
if current > 0 then
  reset = (index + 2) * window - now
elseif previous > 0 then
  reset = (index + 1) * window - now
end
if allowed or redis.call('PTTL', key) == -1 then
  redis.call('PEXPIRE', key, (index + 2) * window - now + expiry_slack)
end
local remaining = math.max(0, math.floor((limit * window - weighted) / window) - current)
local wait = 0
if remaining == 0 then
  local room = (limit - current - 1) * window
  if room < 0 then
    -- This window is full: the next one admits once this one's weight has dropped by one request.
    wait = window - elapsed + math.ceil(window / limit)
  else
    -- Admitted once  previous * (window - elapsed - wait) <= room.
    wait = window - elapsed - math.floor(room / previous)
  end
end
return {allowed and 1 or 0, remaining, wait, reset, now}
