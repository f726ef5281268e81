-- A token bucket as Spring Cloud Gateway's Redis rate limiter describes it, written from that description
-- for the benchmarks (not the gateway's code): two string keys, the tokens left and the time of the last
-- refill; time from Redis in whole seconds; the bucket refills by rate tokens per elapsed second up to its
-- capacity; both keys live for twice the time a full refill takes.
-- KEYS[1] tokens, KEYS[2] last refill (s); ARGV[1] rate per second, ARGV[2] capacity, ARGV[3] tokens asked for.
local rate = tonumber(ARGV[1])
local capacity = tonumber(ARGV[2])
local asked = tonumber(ARGV[3])
local now = tonumber(redis.call('TIME')[1])
local lifetime = math.floor(capacity / rate * 2)

local left = tonumber(redis.call('GET', KEYS[1])) or capacity
local last = tonumber(redis.call('GET', KEYS[2])) or 0
left = math.min(capacity, left + math.max(0, now - last) * rate)

local granted = left >= asked
if granted then
  left = left - asked
end
if lifetime > 0 then
  redis.call('SETEX', KEYS[1], lifetime, left)
  redis.call('SETEX', KEYS[2], lifetime, now)
end
return { granted and 1 or 0, left }
