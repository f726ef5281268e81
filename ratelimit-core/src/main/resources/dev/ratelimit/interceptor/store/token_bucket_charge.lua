-- Charges a request whose response said it used more than its estimate the ARGV[4] units more: the TAT
-- moves on by their intervals, from now at the earliest, past the burst if need be (a debt, earned back
-- before the bucket admits again); the key lives until the bucket is full.
local tat, tat_rest = arrival()
tat, tat_rest = advance(tat, tat_rest, cost)
redis.call('SET', key, string.format('%d:%d', tat, tat_rest), 'PX', millis_until(tat, tat_rest) + expiry_slack)
return {1}
