-- Claimed Outbox schema, version 5, H2 2.x.
-- The due rows in two indexes, by whether they have an ordering key, instead of one (see the
-- PostgreSQL script for why); without partial indexes, two generated columns hold due_at for one
-- kind of row each.
ALTER TABLE outbox_entry
    ADD COLUMN unkeyed_due_at TIMESTAMP(6) WITH TIME ZONE GENERATED ALWAYS AS (CASE WHEN ordering_key IS NULL THEN due_at END);
ALTER TABLE outbox_entry
    ADD COLUMN keyed_due_at TIMESTAMP(6) WITH TIME ZONE GENERATED ALWAYS AS (CASE WHEN ordering_key IS NOT NULL THEN due_at END);
CREATE INDEX outbox_entry_unkeyed_due ON outbox_entry (unkeyed_due_at, id);
CREATE INDEX outbox_entry_keyed_due ON outbox_entry (keyed_due_at, id);
DROP INDEX IF EXISTS outbox_entry_due;
