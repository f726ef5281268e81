-- Gives back a request admitted at ARGV[5] if its window is still the current one. The count also
-- holds the denied requests beyond the limit; they never took a unit, so what is left after the refund
-- is the admitted requests but this one.
local reserved = tonumber(ARGV[5])
local start = tonumber(redis.call('HGET', key, 'start'))
if not start or reserved < start
    or (calendar_start and start ~= calendar_start or not calendar_start and now - start >= window) then
  return {0}
end
local admitted = math.min(tonumber(redis.call('HGET', key, 'count')) or 0, limit)
if admitted < 1 then
  return {0}
end
redis.call('HSET', key, 'count', math.max(0, admitted - cost))
return {1}
