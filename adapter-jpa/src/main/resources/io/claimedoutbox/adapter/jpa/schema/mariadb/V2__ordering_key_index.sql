-- Claimed Outbox schema, version 2, MariaDB 10.6+.
-- A claim passes over an entry while an earlier entry of its ordering key is not finished; this
-- index answers "is there an earlier one" with one lookup.
CREATE INDEX outbox_entry_key_order ON outbox_entry (ordering_key, created_at, id);
