-- Gives back a request admitted at ARGV[5]: the TAT ("<ms>:<r>", see token_bucket.lua) moves back by its
-- cost in intervals, but never before now, since a bucket holds no more than its burst. A request a
-- window old or more has been earned back already.
local stored = redis.call('GET', key)
if not stored or tonumber(ARGV[5]) <= now - window then
  return {0}
end
local ms, rest = string.match(stored, '^(%d+):(%d+)$')
ms, rest = tonumber(ms), tonumber(rest)
if not ms or ms < now or (ms == now and rest == 0) then
  return {0}
end
-- Lua's floor division and modulo borrow whole milliseconds for a negative remainder.
local total_rest = rest - (window % limit) * cost
ms, rest = ms - math.floor(window / limit) * cost + math.floor(total_rest / limit), total_rest % limit
if ms < now or (ms == now and rest == 0) then
  redis.call('DEL', key)
else
  redis.call('SET', key, string.format('%d:%d', ms, rest), 'KEEPTTL')
end
return {1}
