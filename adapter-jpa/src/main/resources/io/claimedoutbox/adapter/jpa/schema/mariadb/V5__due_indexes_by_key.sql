-- Claimed Outbox schema, version 5, MariaDB 10.6+.
-- The due rows in two indexes, by whether they have an ordering key, instead of one. A claim walks
-- the unkeyed due rows by their own index, so entries without a key are never found only after
-- every held-back entry of a busy key; and it walks the keyed ones in a window of its batch's
-- size, finding the heads of keys beyond it through outbox_entry_key_order. Without partial
-- indexes, two generated columns hold due_at for one kind of row each; a write changes the index
-- of its own kind only, as many as before.
ALTER TABLE outbox_entry
    ADD COLUMN unkeyed_due_at DATETIME(6) AS (IF(ordering_key IS NULL, due_at, NULL)) VIRTUAL,
    ADD COLUMN keyed_due_at DATETIME(6) AS (IF(ordering_key IS NULL, NULL, due_at)) VIRTUAL;
CREATE INDEX outbox_entry_unkeyed_due ON outbox_entry (unkeyed_due_at, id);
CREATE INDEX outbox_entry_keyed_due ON outbox_entry (keyed_due_at, id);
DROP INDEX IF EXISTS outbox_entry_due ON outbox_entry;
