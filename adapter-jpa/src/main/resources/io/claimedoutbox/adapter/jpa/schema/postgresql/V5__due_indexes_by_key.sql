-- Claimed Outbox schema, version 5, PostgreSQL 12+.
-- The due rows in two indexes, by whether they have an ordering key, instead of one. A claim walks
-- the unkeyed due rows by their own index, so entries without a key are never found only after
-- every held-back entry of a busy key; and it walks the keyed ones in a window of its batch's
-- size, finding the heads of keys beyond it through outbox_entry_key_order. Each row is in one of
-- the two, so a write touches as many indexes as before.
CREATE INDEX outbox_entry_unkeyed_due ON outbox_entry (due_at, id) WHERE due_at IS NOT NULL AND ordering_key IS NULL;
CREATE INDEX outbox_entry_keyed_due ON outbox_entry (due_at, id) WHERE due_at IS NOT NULL AND ordering_key IS NOT NULL;
DROP INDEX IF EXISTS outbox_entry_due;
