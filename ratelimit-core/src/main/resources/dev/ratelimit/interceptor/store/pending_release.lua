-- Before a refund or a charge, and as a confirmation: the request admitted at ARGV[5] no longer holds its
-- ARGV[18] units pending (counter_tail.lua) in the penalty hash KEYS[2], given only for a limit whose
-- units stay pending until the response settles them. A field it finds already gone stays gone.
if KEYS[2] then
  local field = 'p' .. ARGV[5]
  if redis.call('HINCRBY', KEYS[2], field, -tonumber(ARGV[18])) <= 0 then
    redis.call('HDEL', KEYS[2], field)
  end
end
