-- Claimed Outbox schema, version 3, H2 2.x.
-- Operations without full scans. Without partial indexes, two generated columns hold a value only
-- for the rows an operation looks for: finished_at (the last write of a finished row, for the
-- purge) and dead_letter_id (the id of a dead letter, for the dead-letter list).
ALTER TABLE outbox_entry
    ADD COLUMN finished_at TIMESTAMP(6) WITH TIME ZONE GENERATED ALWAYS AS (CASE WHEN due_at IS NULL THEN updated_at END);
ALTER TABLE outbox_entry
    ADD COLUMN dead_letter_id VARCHAR(64) GENERATED ALWAYS AS (CASE WHEN status = 'DEAD_LETTERED' THEN id END);
CREATE INDEX outbox_entry_finished ON outbox_entry (finished_at);
CREATE INDEX outbox_entry_dead_letter ON outbox_entry (dead_letter_id);
