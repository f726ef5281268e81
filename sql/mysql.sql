-- Interception log of the rate limiter (MySQL 5.7+/8, MariaDB 10.3+). Safe to run again.
-- hits: the identical interceptions one row stands for (coalesced within ratelimit.log.writer.coalesce-window).
-- reason: why the request was intercepted: 'limit' (a limit denied it) or 'deny' (the deny list refused it).
-- created_at is the wall-clock time in ratelimit.log.time-zone (DATETIME: never shifted by the session time zone).
-- utf8mb4_bin: names compare exactly and sort by code point, as the limiter counts them ('Alice' is not 'alice'),
-- the same as on PostgreSQL (COLLATE "C") and H2.
-- The indexes are declared inside CREATE TABLE because MySQL has no CREATE INDEX IF NOT EXISTS.
CREATE TABLE IF NOT EXISTS biz_sys_ratelimit_log (
    id           BIGINT         NOT NULL AUTO_INCREMENT,
    created_at   DATETIME(3)    NOT NULL,
    module       VARCHAR(64)    NOT NULL,
    rule         VARCHAR(255)   NOT NULL,
    usercode     VARCHAR(128)   NULL,
    ip           VARCHAR(64)    NULL,
    http_method  VARCHAR(16)    NOT NULL,
    uri          VARCHAR(1024)  NOT NULL,
    dimension    VARCHAR(16)    NOT NULL,
    limit_count  BIGINT         NOT NULL,
    interval_sec BIGINT         NOT NULL,
    shadow       BOOLEAN        NOT NULL,
    hits         BIGINT         NOT NULL DEFAULT 1,
    reason       VARCHAR(16)    NOT NULL DEFAULT 'limit',
    PRIMARY KEY (id),
    KEY idx_ratelimit_log_created (created_at),
    KEY idx_ratelimit_log_rule (rule, created_at),
    KEY idx_ratelimit_log_user (usercode, created_at)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

-- Audit trail of the console: who changed which config field, when, from what to what (NULL: absent).
CREATE TABLE IF NOT EXISTS biz_sys_ratelimit_audit (
    id         BIGINT        NOT NULL AUTO_INCREMENT,
    created_at DATETIME(3)   NOT NULL,
    operator   VARCHAR(128)  NOT NULL,
    field      VARCHAR(600)  NOT NULL,
    old_value  VARCHAR(255)  NULL,
    new_value  VARCHAR(255)  NULL,
    PRIMARY KEY (id),
    INDEX idx_ratelimit_audit_created (created_at)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

-- The durable copy of the config hash {p}:sysconfig: operators' rules, kept here by every instance that
-- has this database, so that they survive Redis and every instance restarting together. One row per
-- hash (config_key is its Redis key, so several key prefixes can share the table); content is the hash's
-- fields as YAML, sorted; digest its SHA-256. The newest config_version wins, in Redis or here.
CREATE TABLE IF NOT EXISTS biz_sys_ratelimit_config (
    config_key     VARCHAR(255)  NOT NULL,
    config_version BIGINT        NOT NULL,
    digest         VARCHAR(64)   NOT NULL,
    field_count    INT           NOT NULL,
    content        LONGTEXT      NOT NULL,
    kept_at        DATETIME(3)   NOT NULL,
    PRIMARY KEY (config_key)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
