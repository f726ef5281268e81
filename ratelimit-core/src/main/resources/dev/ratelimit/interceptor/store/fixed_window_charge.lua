-- Charges a request whose response said it used more than its estimate the ARGV[4] units more, in the
-- window open now (a new one if none is): past the limit they are a debt that the windows after it pay
-- off, and the key lives until then.
local start = window_now()
local count = redis.call('HINCRBY', key, 'count', cost)
if not start then
  start = now
  redis.call('HSET', key, 'start', start)
end
redis.call('PEXPIRE', key, paid_off(start, count) - now + expiry_slack)
return {1}
