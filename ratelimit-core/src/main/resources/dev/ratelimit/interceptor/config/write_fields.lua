-- Sets and removes fields of the config hash and announces the change, as one atomic step: an instance
-- that hears the announcement reads all of it, the values returned are exactly the ones this write
-- replaced (for the operator's audit trail) even with several editors at once, and config.version
-- advances when anything changed, so that instances tell an edited hash from one that vanished. The
-- version is a logical clock: one more than before, and at least Redis' time in ms, so that a write made
-- after a hash was lost and re-created is still newer than every copy kept from before the loss.
-- KEYS[1]: the config hash
-- ARGV[1]: the config-changed channel; ARGV[2]: the version the writer read, or '' to write whatever it is;
-- ARGV[3]: '1' to have the whole hash returned after a change (for the durable copy), else '';
-- ARGV[4..]: field, 's' and the new value, or field, 'd' and '' to remove the field; ...
-- Returns {-1} when the hash does not exist (nothing written): a hash Redis lost is put back by the
-- instances from their copies at once, and a write made before would be a hash of its own fields alone,
-- newer than every copy, which the instances would then adopt: the operators' other values lost. Returns
-- {version} when ARGV[2] no longer holds (nothing written), else {version, then for each field
-- 1 and its previous value, or 0 and '' when it was absent, then, when ARGV[3] asks and anything changed,
-- every field and value of the hash as written}.
if redis.call('EXISTS', KEYS[1]) == 0 then
    return {-1}
end
local version = tonumber(redis.call('HGET', KEYS[1], 'config.version') or '0') or 0
if ARGV[2] ~= '' and tonumber(ARGV[2]) ~= version then
    return {version}
end
local reply = {version}
local changed = false
for i = 4, #ARGV, 3 do
    local field, op, value = ARGV[i], ARGV[i + 1], ARGV[i + 2]
    local old = redis.call('HGET', KEYS[1], field)
    if old then
        table.insert(reply, 1)
        table.insert(reply, old)
    else
        table.insert(reply, 0)
        table.insert(reply, '')
    end
    if op == 's' then
        if old ~= value then
            redis.call('HSET', KEYS[1], field, value)
            changed = true
        end
    elseif old then
        redis.call('HDEL', KEYS[1], field)
        changed = true
    end
end
if changed then
    local time = redis.call('TIME')
    local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
    reply[1] = math.max(version + 1, now)
    redis.call('HSET', KEYS[1], 'config.version', string.format('%d', reply[1]))
    redis.call('PUBLISH', ARGV[1], ARGV[4])
    if ARGV[3] == '1' then
        for _, item in ipairs(redis.call('HGETALL', KEYS[1])) do
            table.insert(reply, item)
        end
    end
end
return reply
