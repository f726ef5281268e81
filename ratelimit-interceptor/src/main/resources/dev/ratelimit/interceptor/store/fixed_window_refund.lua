-- Gives back a request admitted at ARGV[4] if its window is still the current one. The count also
-- holds the denied requests beyond the limit; they never took a unit, so what is left after the refund
-- is the admitted requests but this one.
local reserved = tonumber(ARGV[4])
local start = tonumber(redis.call('HGET', key, 'start'))
if not start or reserved < start or now - start >= window then
  return {0}
end
local admitted = math.min(tonumber(redis.call('HGET', key, 'count')) or 0, limit)
if admitted < 1 then
  return {0}
end
redis.call('HSET', key, 'count', admitted - 1)
return {1}
