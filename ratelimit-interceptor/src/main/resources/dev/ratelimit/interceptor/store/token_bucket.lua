-- Token bucket as GCRA: one string per key, the theoretical arrival time (TAT) of the next request.
-- Burst = limit, one unit earns back every window / limit ms. Admitted iff TAT + cost * interval - now <= window.
-- The interval window / limit is rarely a whole number of milliseconds, so the TAT is kept exactly as
-- "<ms>:<r>", meaning ms + r / limit: integers only, no rounding that would drift over a long run.
local step = math.floor(window / limit)
local step_rest = window % limit
local tat, tat_rest = now, 0
local stored = redis.call('GET', key)
if stored then
  local ms, rest = string.match(stored, '^(%d+):(%d+)$')
  ms, rest = tonumber(ms), tonumber(rest)
  if ms and rest >= limit then
    -- Written under a smaller limit: round up, never in the client's favour.
    ms, rest = ms + 1, 0
  end
  if ms and (ms > now or (ms == now and rest > 0)) then
    tat, tat_rest = ms, rest
  end
end
-- Whole milliseconds from now until ms + rest / limit, rounded up.
local function millis_until(ms, rest)
  return ms - now + (rest > 0 and 1 or 0)
end
-- The TAT after n more units: tat + n * window / limit. n * (window % limit) stays below 2^53: cost is
-- at most the limit, and limit * window is.
local function advance(ms, rest, n)
  ms, rest = ms + step * n, rest + step_rest * n
  return ms + math.floor(rest / limit), rest % limit
end
local next_tat, next_rest = advance(tat, tat_rest, cost)
local ahead = next_tat - now
local allowed = ahead < window or (ahead == window and next_rest == 0)
if allowed and not dry then
  tat, tat_rest = next_tat, next_rest
  next_tat, next_rest = advance(tat, tat_rest, cost)
  redis.call('SET', key, string.format('%d:%d', tat, tat_rest), 'PX', millis_until(tat, tat_rest) + expiry_slack)
elseif not dry and redis.call('PTTL', key) == -1 then
  redis.call('PEXPIRE', key, math.max(1, millis_until(tat, tat_rest)) + expiry_slack)
end
-- Units still free now: how many intervals fit between the TAT and now + window.
local remaining = math.floor(((window - (tat - now)) * limit - tat_rest) / window)
local wait = 0
remaining = math.max(0, remaining)
if remaining < cost then
  wait = millis_until(next_tat, next_rest) - window
end
return {allowed and 1 or 0, remaining, wait, math.max(0, millis_until(tat, tat_rest)), now}
