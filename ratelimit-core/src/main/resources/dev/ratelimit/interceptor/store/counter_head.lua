-- The head of every counter script, put in front of it when the script is loaded.
-- KEYS[1]  the counter key
-- ARGV[1]  limit: requests per window
-- ARGV[2]  window in milliseconds
-- ARGV[3]  optional: the time in milliseconds. Only tests give it, so that one suite can feed the Redis
--          and the in-process store the same clock; otherwise (absent or empty) the time is Redis' own
--          TIME, so the clocks of the app instances never matter.
-- ARGV[4]  optional: the request's cost, the units it takes (or a refund gives back); 1 when absent or empty.
-- ARGV[5]  refund scripts only: the time (ms) its counting script gave for the request given back.
-- KEYS[2]  counting scripts, optional: the limit's penalty hash (see counter_tail.lua), in the counter's
--          slot; ARGV[6] the first block in ms, ARGV[7] the longest block in ms.
-- ARGV[8..11] fixed window only, optional: a calendar quota's period starts around now (CalendarBounds):
--          the window is the period that holds now, calendar_start to calendar_end.
-- ARGV[12] counting scripts, optional: '1' to peek: answer what a request of this cost would be told now,
--          and write nothing. Then remaining is the units free now, and wait 0 if the request fits.
-- ARGV[13] concurrency scripts: the id of the request's lease; ARGV[13..] for a renewal, the leases of the key.
-- ARGV[14] fixed window and token bucket, optional: '1' when the cost is an estimate settled after the
--          response: a charge script then adds ARGV[4] units, past the limit if need be (a debt).
-- ARGV[15] fixed window, sliding window and token bucket, optional: units to take beyond the cost, if the
--          request is admitted, for the calling instance to admit its next requests from (a batch of
--          permits); ARGV[16] the instances sharing the counter, ARGV[17] the permits the instance holds of it
--          already: it never holds more than its share of the room left after the request and what it holds,
--          so that one instance cannot hold what the others' clients need.
-- ARGV[18] optional, for a limit with a penalty whose units stay pending until the response settles them
--          (countWhen, an estimate): in a counting script, the units the request holds pending if admitted (its
--          cost); in a refund, charge or confirmation (pending_release.lua), the pending units it gives up.
-- Every counting script returns {allowed 1|0, remaining, wait ms, reset ms, now ms}: remaining = units
-- still free right now after this request; wait = time until a request of cost 1 is admitted (0 while
-- remaining > 0); reset = time until the whole quota is back; now = the time of the decision, which
-- names the request to a refund. An algorithm's denial may add whether it is final (1 or 0, see final),
-- which counter_tail.lua takes off. Asked for a batch (ARGV[15]), an admission adds {units taken, the window
-- they belong to, ms they stay good}: they are counted now, and are void once that window is over; a refund
-- gives back those unused, as it gives back a request. Refund scripts return {1} when they gave units back,
-- else {0}; charge scripts return {1}.
local key = KEYS[1]
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
-- The common request (no test clock, cost 1, nothing else) sends the first two arguments only; the others
-- are read only when some are sent. Redis' time per decision is mostly the script's own, not its commands
-- (BENCHMARKS.md, "Redis' own time per decision").
local now, cost, dry, batch, sharers, held, pending_units = nil, 1, false, 0, 1, 0, nil
local optional = #ARGV > 2
if optional then
  now = tonumber(ARGV[3])
  cost = tonumber(ARGV[4]) or 1
  dry = ARGV[12] == '1'
  batch = tonumber(ARGV[15]) or 0
  sharers = tonumber(ARGV[16]) or 1
  held = tonumber(ARGV[17]) or 0
  pending_units = tonumber(ARGV[18])
end
-- When a running request ends is unknown: a denial that its end could undo tells this wait, or less.
local until_a_request_ends = 1000
-- Added to every TTL. Under a test's clock Redis still expires keys by its own clock, which may run
-- ahead of the test's; a minute more keeps them. No decision relies on a key expiring (every script
-- ages its state by now), so the slack changes memory use only.
local expiry_slack = 0
if now then
  expiry_slack = 60000
else
  local time = redis.call('TIME')
  now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
end
local calendar_start, calendar_end
if optional and ARGV[8] and ARGV[8] ~= '' then
  local starts = {tonumber(ARGV[8]), tonumber(ARGV[9]), tonumber(ARGV[10]), tonumber(ARGV[11])}
  local i = now < starts[2] and 1 or (now < starts[3] and 2 or 3)
  calendar_start, calendar_end = starts[i], starts[i + 1]
end
-- Gives the key the TTL it needs after a decision, ttl ms plus the slack: after an admission, or when a
-- denial finds the key without one (an orphan that would otherwise block its identity forever). Nothing
-- when peeking.
local function expire_after(allowed, ttl)
  if not dry and (allowed or redis.call('PTTL', key) == -1) then
    redis.call('PEXPIRE', key, ttl + expiry_slack)
  end
end
-- The units of a batch taken out of room units free after the request: at most the batch asked for, and
-- no more than leaves the instance its share of the room and what it holds.
local function batch_of(room)
  return math.max(0, math.min(batch, math.floor((room + held) / sharers) - held, room))
end
-- An admission's answer, with the batch taken for it when one was asked for.
local function admission(remaining, wait, reset, units, window_id, good_for)
  if batch > 0 then
    return {1, remaining, wait, reset, now, units, window_id, good_for}
  end
  return {1, remaining, wait, reset, now}
end
-- Whether a denial is final, for the penalty. A limit whose units stay pending until the responses settle
-- them (ARGV[18]) denies for good only a request that would still be denied once the units reserved at since
-- (ms) or later, all that a refund could still give back, came back; fits(units) says whether it then fits.
-- The penalty hash (KEYS[2]) keeps the pending units, a field 'p<ms>' per time of reservation; one reserved
-- before since is pending no more (its request died, or its confirmation was lost), and goes.
local function final(since, fits)
  if dry or not pending_units or not KEYS[2] then
    return true
  end
  local units = 0
  local fields = redis.call('HGETALL', KEYS[2])
  for i = 1, #fields, 2 do
    local at = tonumber(string.match(fields[i], '^p(%d+)$'))
    if at and at >= since then
      units = units + tonumber(fields[i + 1])
    elseif at then
      redis.call('HDEL', KEYS[2], fields[i])
    end
  end
  return units == 0 or not fits(units)
end
