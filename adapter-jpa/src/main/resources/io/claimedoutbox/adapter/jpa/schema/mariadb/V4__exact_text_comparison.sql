-- Claimed Outbox schema, version 4, MariaDB 10.6+.
-- Ids, topics, ordering keys, owners and tokens are compared exactly, code point by code point, as on
-- every other backend: the server's default collation (utf8mb4_general_ci) would make 'orders',
-- 'ORDERS', 'órders' and 'orders ' one topic and 'K1' and 'k1' one ordering key. A binary collation
-- without pad space compares bytes, trailing spaces included. Rebuilds the table and its indexes once.
ALTER TABLE outbox_entry CONVERT TO CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin;
