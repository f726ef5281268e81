-- Gives back a request admitted at ARGV[4]: removes one entry of that time while it is in the window.
-- Entries of one time are alike, so any of them will do.
local reserved = tonumber(ARGV[4])
if reserved <= now - window then
  return {0}
end
local entries = redis.call('ZRANGEBYSCORE', key, reserved, reserved, 'LIMIT', 0, 1)
if #entries == 0 then
  return {0}
end
redis.call('ZREM', key, entries[1])
return {1}
