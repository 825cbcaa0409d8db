-- Appends a batch of entries to one shard, atomically.
-- KEYS[1]  the shard's due index (sorted set: entry id scored by due time in epoch millis)
-- ARGV[1]  the shard's entry key prefix, e.g. "{outbox:0}:e:"
-- ARGV[2]  the number of entries; then, per entry: id, due millis, field count k, k field/value pairs
-- Returns the number of entries appended.
local prefix = ARGV[1]
local count = tonumber(ARGV[2])
local at = 3
for _ = 1, count do
  local id, due, fields = ARGV[at], ARGV[at + 1], tonumber(ARGV[at + 2])
  at = at + 3
  local key = prefix .. id
  if redis.call('EXISTS', key) == 1 then
    return redis.error_reply('OUTBOX_DUPLICATE ' .. id)
  end
  redis.call('HSET', key, unpack(ARGV, at, at + 2 * fields - 1))
  redis.call('ZADD', KEYS[1], due, id)
  at = at + 2 * fields
end
return count
