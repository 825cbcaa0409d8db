-- Puts one dead letter back in the queue, as the domain computed it (OutboxEntry.requeued): a
-- compare-and-set on the revision read, and only while the entry is still DEAD_LETTERED. It leaves
-- the finished and dead-letter indexes and, with an ordering key, joins its key's index again (KEYS[6],
-- named by Java from the entry it read: an entry's ordering key never changes), scored by append time
-- like an append. Like an append it joins the due index when it is its key's first unfinished entry
-- (or has no key), the held index otherwise. Should it go ahead of the key's first entry, that entry
-- leaves the due index for the held index with its score (a claimed one stays in flight).
-- KEYS[1] entry hash, KEYS[2] due index, KEYS[3] finished index, KEYS[4] dead-letter index,
-- KEYS[5] held index, KEYS[6] the ordering key's index (only for an entry with one)
-- ARGV[1] entry id, ARGV[2] the revision read, ARGV[3] due millis, then field/value pairs of the
-- requeued state
-- Returns {'OK', 1} when requeued, {'OK', 0} when the entry moved on or is gone.
local row = redis.call('HMGET', KEYS[1], 'revision', 'status', 'createdAt')
if row[1] ~= ARGV[2] or row[2] ~= 'DEAD_LETTERED' then
  return {'OK', 0}
end
redis.call('HSET', KEYS[1], unpack(ARGV, 4, #ARGV))
redis.call('ZREM', KEYS[3], ARGV[1])
redis.call('ZREM', KEYS[4], ARGV[1])
local index = KEYS[2]
if KEYS[6] then
  redis.call('ZADD', KEYS[6], row[3], ARGV[1])
  local firstTwo = redis.call('ZRANGE', KEYS[6], 0, 1)
  if firstTwo[1] ~= ARGV[1] then
    index = KEYS[5]
  elseif firstTwo[2] then
    local score = redis.call('ZSCORE', KEYS[2], firstTwo[2])
    if score then
      redis.call('ZREM', KEYS[2], firstTwo[2])
      redis.call('ZADD', KEYS[5], score, firstTwo[2])
    end
  end
end
redis.call('ZADD', index, ARGV[3], ARGV[1])
return {'OK', 1}
