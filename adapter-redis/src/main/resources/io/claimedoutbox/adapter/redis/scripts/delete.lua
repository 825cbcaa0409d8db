-- Deletes one entry and its index members: the due and in-flight indexes, the failed set, the
-- finished and dead-letter indexes and, for an entry with an ordering key, its key's index (the
-- last four named from the due index's hash tag).
-- KEYS[1] entry hash, KEYS[2] due, KEYS[3] in-flight. ARGV[1] entry id.
-- Returns {'OK', 1} when an entry was deleted, {'OK', 0} when there was none.
local tag = (string.gsub(KEYS[2], 'due$', ''))
local orderingKey = redis.call('HGET', KEYS[1], 'orderingKey')
if orderingKey then
  redis.call('ZREM', tag .. 'k:' .. orderingKey, ARGV[1])
end
redis.call('SREM', tag .. 'failed', ARGV[1])
redis.call('ZREM', tag .. 'finished', ARGV[1])
redis.call('ZREM', tag .. 'dead', ARGV[1])
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
return {'OK', redis.call('DEL', KEYS[1])}
