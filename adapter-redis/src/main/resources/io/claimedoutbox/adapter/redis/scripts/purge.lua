-- Deletes chosen finished entries of one shard: each only if it is still in the finished index with
-- a finish time before the cutoff (a dead letter requeued since has left the index and stays).
-- KEYS[1] finished index (scored by finish millis), KEYS[2] dead-letter index, then each id's hash, in
-- the ids' order
-- ARGV[1] cutoff millis (exclusive), then the ids
-- Returns {'OK', how many were deleted}.
local deleted = 0
for i = 2, #ARGV do
  local id = ARGV[i]
  local finished = redis.call('ZSCORE', KEYS[1], id)
  if finished and tonumber(finished) < tonumber(ARGV[1]) then
    redis.call('DEL', KEYS[i + 1])
    redis.call('ZREM', KEYS[1], id)
    redis.call('ZREM', KEYS[2], id)
    deleted = deleted + 1
  end
end
return {'OK', deleted}
