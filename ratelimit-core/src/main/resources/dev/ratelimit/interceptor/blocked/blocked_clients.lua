-- Adds the clients an instance saw blocked to the module's set of blocked clients, and keeps the set
-- bounded: ended blocks go, and past the maximum the blocks that end soonest go first. A client an
-- operator unblocked is added again only for a refusal after the unblock: an instance may still hold
-- refusals from before it, noted but not yet written.
-- KEYS[1]: the set; KEYS[2]: the unblocked clients, scored by when (epoch ms);
-- ARGV[1]: now (epoch ms); ARGV[2]: the most members kept; ARGV[3]: how long an unblock is remembered (ms);
-- ARGV[4], ARGV[5], ARGV[6], ...: member, end of its block, its last refusal (epoch ms), triples.
-- Returns the number of members kept.
local key = KEYS[1]
local unblocked = KEYS[2]
local now = tonumber(ARGV[1])
local max = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', unblocked, '-inf', now - tonumber(ARGV[3]))
for i = 4, #ARGV, 3 do
    local ends = tonumber(ARGV[i + 1])
    local freed = redis.call('ZSCORE', unblocked, ARGV[i])
    if not freed or tonumber(freed) < tonumber(ARGV[i + 2]) then
        local known = redis.call('ZSCORE', key, ARGV[i])
        if not known or tonumber(known) < ends then
            redis.call('ZADD', key, ends, ARGV[i])
        end
    end
end
redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
local size = redis.call('ZCARD', key)
if size > max then
    redis.call('ZREMRANGEBYRANK', key, 0, size - max - 1)
    size = max
end
local last = redis.call('ZRANGE', key, -1, -1, 'WITHSCORES')
if last[2] then
    redis.call('PEXPIREAT', key, last[2])
end
return size
