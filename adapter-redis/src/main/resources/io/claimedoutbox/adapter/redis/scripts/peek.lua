-- The oldest due entries of one shard, without claiming them: what a multi-shard claim compares.
-- KEYS[1]  due index, KEYS[2] in-flight index
-- ARGV[1]  now (epoch millis), ARGV[2] how many
-- Returns a flat list: id, due millis, id, due millis, ... from both indexes (unsorted between them).
local found = {}
for _, index in ipairs(KEYS) do
  local due = redis.call('ZRANGE', index, '-inf', ARGV[1], 'BYSCORE', 'LIMIT', 0, tonumber(ARGV[2]), 'WITHSCORES')
  for i = 1, #due do
    found[#found + 1] = due[i]
  end
end
return found
