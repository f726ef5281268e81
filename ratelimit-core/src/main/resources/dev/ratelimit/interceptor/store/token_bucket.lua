-- Token bucket as GCRA: one string per key, the theoretical arrival time (TAT) of the next request.
-- Burst = limit, one unit earns back every window / limit ms. Admitted iff TAT + cost * interval - now <= window.
-- The interval window / limit is rarely a whole number of milliseconds, so the TAT is kept exactly as
-- "<ms>:<r>", meaning ms + r / limit: integers only, no rounding that would drift over a long run
-- (token_bucket_time.lua). A charge after the response may move the TAT past the burst: a debt, which the
-- bucket earns back before it admits again.
local tat, tat_rest = arrival()
local next_tat, next_rest = advance(tat, tat_rest, cost)
local ahead = next_tat - now
local allowed = ahead < window or (ahead == window and next_rest == 0)
local units = 0
if allowed and not dry then
  tat, tat_rest = next_tat, next_rest
  units = batch_of(math.floor(((window - (tat - now)) * limit - tat_rest) / window))
  if units > 0 then
    tat, tat_rest = advance(tat, tat_rest, units)
  end
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
local reset = math.max(0, millis_until(tat, tat_rest))
if allowed then
  -- Tokens belong to no window: the instance holds a batch of them for its longest hold at most.
  return admission(remaining, wait, reset, units, 0, window)
end
-- A refund moves the TAT back, never before now, for a request of the last window.
return {0, remaining, wait, reset, now, final(now - window + 1, function(units)
  local back, back_rest = advance(tat, tat_rest, -units)
  if back < now or (back == now and back_rest == 0) then
    back, back_rest = now, 0
  end
  local fit, fit_rest = advance(back, back_rest, cost)
  return fit - now < window or (fit - now == window and fit_rest == 0)
end) and 1 or 0}
