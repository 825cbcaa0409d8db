-- Deletes one entry and its index members. KEYS[1] entry hash, KEYS[2] due, KEYS[3] in-flight.
-- ARGV[1] entry id. Returns {'OK', 1} when an entry was deleted, {'OK', 0} when there was none.
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
return {'OK', redis.call('DEL', KEYS[1])}
