-- Claimed Outbox schema, version 2, H2 2.x.
-- A claim passes over an entry while an earlier entry of its ordering key is not finished. Without
-- partial indexes, the probe needs a column that holds the key only while the entry is unfinished
-- (due_at set), so its index never makes the probe walk past a key's finished entries.
ALTER TABLE outbox_entry
    ADD COLUMN unfinished_key VARCHAR(255) GENERATED ALWAYS AS (CASE WHEN due_at IS NULL THEN NULL ELSE ordering_key END);
CREATE INDEX outbox_entry_key_order ON outbox_entry (unfinished_key, created_at, id);
