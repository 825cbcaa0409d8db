-- Claimed Outbox schema, version 2, MariaDB 10.6+.
-- A claim passes over an entry while an earlier entry of its ordering key is not finished. Without
-- partial indexes, the probe needs a column that holds the key only while the entry is unfinished
-- (due_at set), so its index never makes the probe walk past a key's finished entries.
ALTER TABLE outbox_entry
    ADD COLUMN unfinished_key VARCHAR(255) AS (IF(due_at IS NULL, NULL, ordering_key)) VIRTUAL;
CREATE INDEX outbox_entry_key_order ON outbox_entry (unfinished_key, created_at, id);
