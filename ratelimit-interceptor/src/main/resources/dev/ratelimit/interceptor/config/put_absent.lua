-- Adds every given field the config hash lacks, keeping every value it has (HSETNX), in one atomic
-- step: the defaults of a start appear all together or not at all.
-- KEYS[1]: the config hash; ARGV: field, value, field, value...
-- Returns how many fields were added.
local added = 0
for i = 1, #ARGV, 2 do
    added = added + redis.call('HSETNX', KEYS[1], ARGV[i], ARGV[i + 1])
end
return added
