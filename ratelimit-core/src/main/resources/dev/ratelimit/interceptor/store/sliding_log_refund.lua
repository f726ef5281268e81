-- Gives back a request admitted at ARGV[5]: removes its cost in entries of that time while in the window.
-- Entries of one time are alike, so any of them will do.
local reserved = tonumber(ARGV[5])
if reserved <= now - window then
  return {0}
end
local entries = redis.call('ZRANGEBYSCORE', key, reserved, reserved, 'LIMIT', 0, cost)
if #entries == 0 then
  return {0}
end
redis.call('ZREM', key, unpack(entries))
return {1}
