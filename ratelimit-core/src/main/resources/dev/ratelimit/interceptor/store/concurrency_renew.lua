-- Extends the leases ARGV[13..] of requests still running to a lease (the window) from now, each only
-- while it is live: a lease released, or expired though no request has swept it away yet, stays gone.
-- Returns the number renewed.
local renewed = 0
for i = 13, #ARGV do
  local expiry = tonumber(redis.call('ZSCORE', key, ARGV[i]))
  if expiry and expiry > now then
    redis.call('ZADD', key, 'XX', now + window, ARGV[i])
    renewed = renewed + 1
  end
end
if renewed > 0 and redis.call('PTTL', key) < window + expiry_slack then
  redis.call('PEXPIRE', key, window + expiry_slack)
end
return {renewed}
