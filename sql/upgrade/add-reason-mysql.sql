-- Upgrade of biz_sys_ratelimit_log made before the reason column (ratelimit 0.1.x). Run once, before the
-- new version writes: reason says why a request was intercepted, 'limit' (a limit denied it) or 'deny' (the
-- deny list refused it). Existing rows were all a limit's. The limiter runs it itself on first use when
-- ratelimit.log.initialize-schema allows it (always; embedded for in-memory databases).
ALTER TABLE biz_sys_ratelimit_log ADD COLUMN reason VARCHAR(16) NOT NULL DEFAULT 'limit';
