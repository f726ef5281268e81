-- Releases the lease ARGV[13] of a request that ended: its slot is free at once.
return {redis.call('ZREM', key, ARGV[13])}
