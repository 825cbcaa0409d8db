-- Appends a batch of entries to one shard, atomically: every id is checked before anything is written.
-- KEYS[1]  the shard's due index (sorted set: entry id scored by due time in epoch millis)
-- ARGV[1]  the shard's entry key prefix, e.g. "{outbox:0}:e:"
-- ARGV[2]  the number of entries; then, per entry: id, due millis, field count k, k field/value pairs
-- Returns the number of entries appended.
local prefix = ARGV[1]
local count = tonumber(ARGV[2])
local entries = {}
local at = 3
for i = 1, count do
  local id, due, fields = ARGV[at], ARGV[at + 1], tonumber(ARGV[at + 2])
  if redis.call('EXISTS', prefix .. id) == 1 then
    return redis.error_reply('OUTBOX_DUPLICATE ' .. id)
  end
  entries[i] = {id = id, due = due, first = at + 3, last = at + 2 + 2 * fields}
  at = at + 3 + 2 * fields
end
for _, entry in ipairs(entries) do
  redis.call('HSET', prefix .. entry.id, unpack(ARGV, entry.first, entry.last))
  redis.call('ZADD', KEYS[1], entry.due, entry.id)
end
return count
