-- Writes what this version of an app declares for each of its knobs, merged with what is in force, as
-- one atomic step (instances of old and new versions may start together):
--   a knob without a value gets the declaration;
--   a knob whose value still equals what the previous declaration was, never changed by an operator,
--     follows the new declaration;
--   any other value was set by an operator and is kept.
-- Each declaration is kept beside its knob as field 'declared.<knob>', for the next merge and for the console.
-- KEYS[1]: the config hash; ARGV[1]: the config-changed channel; ARGV[2..]: knob, declared value, ...
-- Returns knob, value, ... of the operator values kept that differ from their declaration; when any value
-- changed, advances config.version by one and announces the change. A declaration is no operator's
-- decision: on a hash that was lost it starts from version 1, so that any copy kept of the lost hash is
-- newer and is put back over it.
local kept = {}
local changed = false
for i = 2, #ARGV, 2 do
    local knob, declared = ARGV[i], ARGV[i + 1]
    local current = redis.call('HGET', KEYS[1], knob)
    local previous = redis.call('HGET', KEYS[1], 'declared.' .. knob)
    if not current or (previous and current == previous) then
        if current ~= declared then
            redis.call('HSET', KEYS[1], knob, declared)
            changed = true
        end
    elseif current ~= declared then
        table.insert(kept, knob)
        table.insert(kept, current)
    end
    if previous ~= declared then
        redis.call('HSET', KEYS[1], 'declared.' .. knob, declared)
        changed = true
    end
end
if changed then
    redis.call('HINCRBY', KEYS[1], 'config.version', 1)
    redis.call('PUBLISH', ARGV[1], 'declared')
end
return kept
