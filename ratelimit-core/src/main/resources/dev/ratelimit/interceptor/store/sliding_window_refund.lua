-- Gives back a request admitted at ARGV[5] while its fixed window is still the current one: once it
-- is the previous window, the request already weighs less, and its count is shared with the others.
local index = math.floor(tonumber(ARGV[5]) / window)
if index ~= math.floor(now / window) then
  return {0}
end
local state = redis.call('HMGET', key, 'w', 'c')
local current = tonumber(state[2]) or 0
if tonumber(state[1]) ~= index or current < 1 then
  return {0}
end
redis.call('HSET', key, 'c', math.max(0, current - cost))
return {1}
