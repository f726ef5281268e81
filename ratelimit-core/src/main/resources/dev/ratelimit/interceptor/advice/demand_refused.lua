-- Adds one instance's refusals without Redis (a near cache's denials) to the client windows of a demand bucket:
-- ARGV[1] the bucket's TTL (s), then per window its field, the refusals to add, and the highest count Redis gave
-- the window on that instance; the highest over the instances is kept. One script, so that no two instances'
-- highest counts race.
local key = KEYS[1]
for i = 2, #ARGV, 3 do
  local field = ARGV[i]
  redis.call('HINCRBY', key, field, ARGV[i + 1])
  local highest = tonumber(redis.call('HGET', key, field .. '|n')) or 0
  if tonumber(ARGV[i + 2]) > highest then
    redis.call('HSET', key, field .. '|n', ARGV[i + 2])
  end
end
redis.call('EXPIRE', key, ARGV[1])
return 1
