-- The fixed window open now, before a fixed window's decision or charge. A limit whose cost is settled
-- after the response (ARGV[14]) may end a window in debt, charged past the limit: the windows after it
-- then follow one another, each paying off up to the limit, until the debt is paid. Such a limit never
-- counts a denied request, so its count is what it was charged; no calendar quota is settled.
local settled = optional and ARGV[14] == '1'
-- The window open now: its start and the units counted in it, or nil (and the count of a key without a
-- start, which a manual write may leave) when none is. A window that is over is deleted (unless peeking),
-- or carries its debt into the window open now. The count of a window still open is read only when
-- peeking: a decision's HINCRBY tells it, and each call into Redis costs the script more than the command.
local function window_now()
  local start = tonumber(redis.call('HGET', key, 'start'))
  local open = start and ((calendar_start and start == calendar_start) or (not calendar_start and now - start < window))
  if open and not dry then
    return start, nil
  end
  local used = tonumber(redis.call('HGET', key, 'count')) or 0
  if not start or open then
    return start, used
  end
  local passed = math.floor((now - start) / window)
  if settled and used > passed * limit then
    start, used = start + passed * window, used - passed * limit
    if not dry then
      redis.call('HSET', key, 'start', start, 'count', used)
    end
    return start, used
  end
  if not dry then
    redis.call('DEL', key)
  end
  return nil, 0
end
-- When the units counted in the window opened at start are paid off: its end, or for a debt the end of
-- the window that pays off its last unit.
local function paid_off(start, units)
  if calendar_end then
    return calendar_end
  end
  return start + math.max(1, settled and math.ceil(units / limit) or 1) * window
end
-- When a request of this cost fits beside the units counted: once its window ends, or once the windows
-- after it have paid off enough of a debt.
local function admits_at(start, units)
  if not settled then
    return paid_off(start, units)
  end
  return start + math.ceil((units + cost - limit) / limit) * window
end
