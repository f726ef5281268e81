end
-- The tail of every counting script: the penalty of a limit with blockFor. A client denied by the
-- algorithm stays denied for the block, or until the algorithm admits again if that is later, so that
-- the wait it is told is the true one; a repeat offender's block doubles
-- up to the longest, and its offences are forgotten once it has been free for the longest block. The
-- penalty hash: "until" (ms) the end of the current block, "offences" since the last forgiveness, and the
-- units still pending ('p<ms>', see final in counter_head.lua).
-- While a block lasts the algorithm is not asked, so the client's attempts change no counter. Only a
-- final denial starts a block: one that units still pending could undo tells the wait until a running
-- request may end, as a concurrency limit does.
local penalty_key = KEYS[2]
if penalty_key then
  local blocked_until = tonumber(redis.call('HGET', penalty_key, 'until'))
  if blocked_until and blocked_until > now then
    local left = blocked_until - now
    return {0, 0, left, left, now}
  end
end
local result = decide()
if result[1] == 0 then
  local denied_for_good = result[6] ~= 0
  -- What follows the flag (a fixed window's demand) takes its place, or nothing does.
  result[6] = result[7]
  result[7] = nil
  if penalty_key and not dry and not denied_for_good then
    result[3] = math.min(result[3], until_a_request_ends)
  elseif penalty_key and not dry then
    local first_block = tonumber(ARGV[6])
    local longest = tonumber(ARGV[7])
    local state = redis.call('HMGET', penalty_key, 'offences', 'until')
    local offences = tonumber(state[1]) or 0
    if now - (tonumber(state[2]) or 0) >= longest then
      offences = 0
    end
    offences = math.min(offences + 1, 64) -- the block stops growing long before
    local block = first_block
    for _ = 2, offences do
      block = math.min(block * 2, longest)
    end
    local wait = math.max(block, result[3])
    redis.call('HSET', penalty_key, 'offences', offences, 'until', now + wait)
    if redis.call('PTTL', penalty_key) < wait + longest + expiry_slack then
      redis.call('PEXPIRE', penalty_key, wait + longest + expiry_slack)
    end
    result[3] = wait
    result[4] = math.max(result[4], wait)
  end
elseif penalty_key and pending_units and not dry then
  -- Pending until its response settles it, for as long as a refund could give it back.
  redis.call('HINCRBY', penalty_key, 'p' .. now, pending_units)
  if redis.call('PTTL', penalty_key) < result[4] + expiry_slack then
    redis.call('PEXPIRE', penalty_key, result[4] + expiry_slack)
  end
end
return result
