-- Claimed Outbox schema, version 3, MariaDB 10.6+.
-- Operations without full scans. Without partial indexes, two generated columns hold a value only
-- for the rows an operation looks for: finished_at (the last write of a finished row, for the
-- purge) and dead_letter_id (the id of a dead letter, for the dead-letter list). Their indexes
-- change only when a row finishes or is requeued, never on a claim.
ALTER TABLE outbox_entry
    ADD COLUMN finished_at DATETIME(6) AS (IF(due_at IS NULL, updated_at, NULL)) VIRTUAL,
    ADD COLUMN dead_letter_id VARCHAR(64) AS (IF(status = 'DEAD_LETTERED', id, NULL)) VIRTUAL;
CREATE INDEX outbox_entry_finished ON outbox_entry (finished_at);
CREATE INDEX outbox_entry_dead_letter ON outbox_entry (dead_letter_id);
