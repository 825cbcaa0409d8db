-- The application's own first migration: it shares the V1 number with the outbox's V1, which the
-- starter keeps in a history table of its own (claimed_outbox_schema_history).
CREATE TABLE customer_order (
    id          VARCHAR(64)  NOT NULL PRIMARY KEY,
    customer_id VARCHAR(64)  NOT NULL,
    item        VARCHAR(255) NOT NULL,
    quantity    INTEGER      NOT NULL
);
