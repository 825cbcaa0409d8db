-- Claimed Outbox schema, version 2, PostgreSQL 12+.
-- A claim passes over an entry while an earlier entry of its ordering key is not finished; this
-- partial index (only unfinished, keyed rows) answers "is there an earlier one" with one lookup.
CREATE INDEX outbox_entry_key_order ON outbox_entry (ordering_key, created_at, id)
    WHERE due_at IS NOT NULL AND ordering_key IS NOT NULL;
