-- Claimed Outbox schema, version 1, MariaDB 10.6+ (SKIP LOCKED).
-- due_at is NULL for terminal rows; the due index range scan never visits them.
CREATE TABLE outbox_entry (
    id               VARCHAR(64)   NOT NULL,
    topic            VARCHAR(255)  NOT NULL,
    ordering_key     VARCHAR(255),
    payload          MEDIUMBLOB    NOT NULL,
    headers          MEDIUMTEXT    NOT NULL,
    status           VARCHAR(16)   NOT NULL,
    attempts         INTEGER       NOT NULL,
    created_at       DATETIME(6)   NOT NULL,
    updated_at       DATETIME(6)   NOT NULL,
    available_at     DATETIME(6)   NOT NULL,
    due_at           DATETIME(6),
    claim_generation BIGINT        NOT NULL,
    claim_owner      VARCHAR(128),
    token_nonce      VARCHAR(36),
    claimed_at       DATETIME(6),
    lease_until      DATETIME(6),
    last_error       VARCHAR(2000),
    progress         VARCHAR(2000),
    delivery_receipt VARCHAR(2000),
    write_stamp      VARCHAR(36),
    revision         BIGINT        NOT NULL,
    CONSTRAINT outbox_entry_pk PRIMARY KEY (id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

CREATE INDEX outbox_entry_due ON outbox_entry (due_at, id);
