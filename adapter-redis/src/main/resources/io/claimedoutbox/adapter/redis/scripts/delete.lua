-- Deletes one entry and its index members: the due and in-flight indexes, the failed set, the
-- finished and dead-letter indexes and, for an entry with an ordering key, its key's index. Java
-- names that index from the ordering key it read just before (an entry's ordering key never
-- changes); should the stored key differ after all (the entry was deleted and its id appended again
-- meanwhile), nothing is deleted and Java reads again.
-- When the entry was its key's first, the key's next entry moves from the held index to the due index.
-- KEYS[1] entry hash, KEYS[2] due, KEYS[3] in-flight, KEYS[4] failed, KEYS[5] finished,
-- KEYS[6] dead letters, KEYS[7] held, KEYS[8] the ordering key's index (only when ARGV[2] names a key).
-- ARGV[1] entry id, ARGV[2] the ordering key read, or '' for none.
-- Returns {'OK', 1} when an entry was deleted, {'OK', 0} when there was none, {'MOVED', 0} when
-- its ordering key is not the one read.
local orderingKey = redis.call('HGET', KEYS[1], 'orderingKey')
if redis.call('EXISTS', KEYS[1]) == 1 and (orderingKey or '') ~= ARGV[2] then
  return {'MOVED', 0}
end
if KEYS[8] then
  redis.call('ZREM', KEYS[8], ARGV[1])
  local first = redis.call('ZRANGE', KEYS[8], 0, 0)[1]
  local score = first and redis.call('ZSCORE', KEYS[7], first)
  if score then
    redis.call('ZREM', KEYS[7], first)
    redis.call('ZADD', KEYS[2], score, first)
  end
end
redis.call('ZREM', KEYS[7], ARGV[1])
redis.call('SREM', KEYS[4], ARGV[1])
redis.call('ZREM', KEYS[5], ARGV[1])
redis.call('ZREM', KEYS[6], ARGV[1])
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
return {'OK', redis.call('DEL', KEYS[1])}
