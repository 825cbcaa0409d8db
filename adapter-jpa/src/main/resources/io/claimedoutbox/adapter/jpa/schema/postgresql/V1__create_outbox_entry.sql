-- Claimed Outbox schema, version 1, PostgreSQL 12+.
-- due_at is NULL for terminal rows, so the partial index holds only rows a claim may still take.
CREATE TABLE outbox_entry (
    id               VARCHAR(64)                 NOT NULL,
    topic            VARCHAR(255)                NOT NULL,
    ordering_key     VARCHAR(255),
    payload          BYTEA                       NOT NULL,
    headers          TEXT                        NOT NULL,
    status           VARCHAR(16)                 NOT NULL,
    attempts         INTEGER                     NOT NULL,
    created_at       TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    updated_at       TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    available_at     TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    due_at           TIMESTAMP(6) WITH TIME ZONE,
    claim_generation BIGINT                      NOT NULL,
    claim_owner      VARCHAR(128),
    token_nonce      VARCHAR(36),
    claimed_at       TIMESTAMP(6) WITH TIME ZONE,
    lease_until      TIMESTAMP(6) WITH TIME ZONE,
    last_error       VARCHAR(2000),
    progress         VARCHAR(2000),
    delivery_receipt VARCHAR(2000),
    write_stamp      VARCHAR(36),
    revision         BIGINT                      NOT NULL,
    CONSTRAINT outbox_entry_pk PRIMARY KEY (id)
);

CREATE INDEX outbox_entry_due ON outbox_entry (due_at, id) WHERE due_at IS NOT NULL;
