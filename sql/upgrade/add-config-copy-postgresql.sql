-- Adds the durable copy of the config hash to a schema made by an earlier version (safe to run again).
-- The durable copy of the config hash {p}:sysconfig: operators' rules, kept here by every instance that
-- has this database, so that they survive Redis and every instance restarting together. One row per
-- hash (config_key is its Redis key, so several key prefixes can share the table); content is the hash's
-- fields as YAML, sorted; digest its SHA-256. The newest config_version wins, in Redis or here.
CREATE TABLE IF NOT EXISTS biz_sys_ratelimit_config (
    config_key     VARCHAR(255)  COLLATE "C" NOT NULL PRIMARY KEY,
    config_version BIGINT        NOT NULL,
    digest         VARCHAR(64)   NOT NULL,
    field_count    INT           NOT NULL,
    content        TEXT          NOT NULL,
    kept_at        TIMESTAMP(3)  NOT NULL
);
