-- Upgrade of biz_sys_ratelimit_log made before the hits column (ratelimit 0.1.x). Run once, before the
-- new version writes: identical interceptions are coalesced into one row, and hits says how many it
-- stands for. Existing rows stand for one each. The limiter runs it itself on first use when
-- ratelimit.log.initialize-schema allows it (always; embedded for in-memory databases).
ALTER TABLE biz_sys_ratelimit_log ADD COLUMN hits BIGINT NOT NULL DEFAULT 1;
