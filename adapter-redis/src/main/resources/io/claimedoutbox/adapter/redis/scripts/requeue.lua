-- Puts one dead letter back in the queue, as the domain computed it (OutboxEntry.requeued): a
-- compare-and-set on the revision read, and only while the entry is still DEAD_LETTERED. It leaves
-- the finished and dead-letter indexes, joins the due index and, with an ordering key, its key's
-- index again (KEYS[5], named by Java from the entry it read: an entry's ordering key never changes),
-- scored by append time like an append.
-- KEYS[1] entry hash, KEYS[2] due index, KEYS[3] finished index, KEYS[4] dead-letter index,
-- KEYS[5] the ordering key's index (only for an entry with one)
-- ARGV[1] entry id, ARGV[2] the revision read, ARGV[3] due millis, then field/value pairs of the
-- requeued state
-- Returns {'OK', 1} when requeued, {'OK', 0} when the entry moved on or is gone.
local row = redis.call('HMGET', KEYS[1], 'revision', 'status', 'createdAt')
if row[1] ~= ARGV[2] or row[2] ~= 'DEAD_LETTERED' then
  return {'OK', 0}
end
redis.call('HSET', KEYS[1], unpack(ARGV, 4, #ARGV))
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
redis.call('ZREM', KEYS[4], ARGV[1])
if KEYS[5] then
  redis.call('ZADD', KEYS[5], row[3], ARGV[1])
end
return {'OK', 1}
