-- Claimed Outbox schema, version 3, PostgreSQL 12+.
-- Operations without full scans: the purge takes finished rows (due_at NULL) by their last write,
-- and the dead-letter list walks dead letters in id order (byte order, whatever the database's
-- collation). Both indexes hold only rows no claim reads, so claims never wait on them.
CREATE INDEX outbox_entry_finished ON outbox_entry (updated_at) WHERE due_at IS NULL;
CREATE INDEX outbox_entry_dead_letter ON outbox_entry ((id COLLATE "C")) WHERE status = 'DEAD_LETTERED';
