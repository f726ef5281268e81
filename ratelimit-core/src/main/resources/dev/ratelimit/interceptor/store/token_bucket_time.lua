-- The time of a token bucket (GCRA, see token_bucket.lua), before its decision or charge: one interval
-- of window / limit ms, the stored theoretical arrival time (TAT), and how it advances.
local step = math.floor(window / limit)
local step_rest = window % limit
-- The TAT stored, "<ms>:<r>" meaning ms + r / limit, or now when the bucket is full.
local function arrival()
  local stored = redis.call('GET', key)
  if stored then
    local ms, rest = string.match(stored, '^(%d+):(%d+)$')
    ms, rest = tonumber(ms), tonumber(rest)
    if ms and rest >= limit then
      -- Written under a smaller limit: round up, never in the client's favour.
      ms, rest = ms + 1, 0
    end
    if ms and (ms > now or (ms == now and rest > 0)) then
      return ms, rest
    end
  end
  return now, 0
end
-- Whole milliseconds from now until ms + rest / limit, rounded up.
local function millis_until(ms, rest)
  return ms - now + (rest > 0 and 1 or 0)
end
-- The TAT after n more units: tat + n * window / limit. n * (window % limit) stays below 2^53: n is at most
-- what the limit pays off in a year, and limit * window is within 2^53.
local function advance(ms, rest, n)
  ms, rest = ms + step * n, rest + step_rest * n
  return ms + math.floor(rest / limit), rest % limit
end
