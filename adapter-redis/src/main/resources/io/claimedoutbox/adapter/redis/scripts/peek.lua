-- The oldest due entries of one shard, read without claiming them: a claim decodes every candidate
-- before it writes anything, so a damaged row fails the whole batch with nothing written.
-- KEYS[1]  due index, KEYS[2] in-flight index
-- ARGV[1]  now (epoch millis), ARGV[2] how many
-- Returns {'OK', candidate...}: one {id, due millis, HGETALL...} per candidate, from both indexes
-- (unsorted between them).
-- An index member whose hash is gone (deleted meanwhile) is dropped from the index, not returned.
local found = {'OK'}
for _, index in ipairs(KEYS) do
  local due = redis.call('ZRANGE', index, '-inf', ARGV[1], 'BYSCORE', 'LIMIT', 0, tonumber(ARGV[2]), 'WITHSCORES')
  for i = 1, #due, 2 do
    local hash = redis.call('HGETALL', ARGV[3] .. due[i])
    if #hash == 0 then
      redis.call('ZREM', index, due[i])
    else
      local candidate = {due[i], due[i + 1]}
      for _, value in ipairs(hash) do
        candidate[#candidate + 1] = value
      end
      found[#found + 1] = candidate
    end
  end
end
return found
