-- Gives back a request admitted at ARGV[5] (or, for a settled cost, the units of its estimate it did not
-- use) if its window is still the current one. The count also holds the denied requests beyond the limit;
-- they never took a unit, so what is left after the refund is the admitted requests but this one. A
-- settled limit counts no denied request, and its count past the limit is a debt, kept.
-- Returns {0} when it gave nothing back, else {1, the count before, the count after}: the counts between are
-- told again to the next requests of the window (the limit advisor takes them back from the demand).
local reserved = tonumber(ARGV[5])
local start = tonumber(redis.call('HGET', key, 'start'))
if not start or reserved < start
    or (calendar_start and start ~= calendar_start or not calendar_start and now - start >= window) then
  return {0}
end
local counted = tonumber(redis.call('HGET', key, 'count')) or 0
local admitted = counted
if ARGV[14] ~= '1' then
  admitted = math.min(admitted, limit)
end
if admitted < 1 then
  return {0}
end
local left = math.max(0, admitted - cost)
redis.call('HSET', key, 'count', left)
return {1, counted, left}
