-- Claims chosen candidates of one shard for one worker, in one atomic step. The caller read and
-- decoded every candidate first (peek.lua); a candidate whose revision moved since (another worker
-- claimed it, or it was finished or deleted) is skipped.
-- KEYS[1]  due index (PENDING and FAILED entries, scored by available/retry time)
-- KEYS[2]  in-flight index (CLAIMED entries, scored by lease end)
-- KEYS[3]  this call's record (a set of the ids it claimed), so a blind client retry of the same
--          call returns the same claims instead of claiming more
-- ARGV[1]  entry key prefix, ARGV[2] now, ARGV[3] owner, ARGV[4] lease end, ARGV[5] write stamp of
--          this call; then per candidate: id, the revision it was read at, a fresh token nonce
-- Returns one HGETALL list per claimed entry, in the order of the candidates.
local prefix, now, owner, leaseEnd, stamp = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5]

local function entries(ids)
  local out = {}
  for i, id in ipairs(ids) do
    out[i] = redis.call('HGETALL', prefix .. id)
  end
  return out
end

if redis.call('EXISTS', KEYS[3]) == 1 then
  local mine = {}
  for _, id in ipairs(redis.call('SMEMBERS', KEYS[3])) do
    if redis.call('HGET', prefix .. id, 'writeStamp') == stamp then
      mine[#mine + 1] = id
    end
  end
  return entries(mine)
end

local ids = {}
for at = 6, #ARGV, 3 do
  local id, expected, nonce = ARGV[at], ARGV[at + 1], ARGV[at + 2]
  local key = prefix .. id
  local row = redis.call('HMGET', key, 'revision', 'claimGeneration', 'attempts')
  if row[1] == expected then
    redis.call('HSET', key,
      'status', 'CLAIMED',
      'owner', owner,
      'tokenNonce', nonce,
      'claimedAt', now,
      'leaseUntil', leaseEnd,
      'updatedAt', now,
      'claimGeneration', tonumber(row[2]) + 1,
      'attempts', tonumber(row[3]) + 1,
      'revision', tonumber(row[1]) + 1,
      'writeStamp', stamp)
    redis.call('ZREM', KEYS[1], id)
    redis.call('ZADD', KEYS[2], leaseEnd, id)
    redis.call('SADD', KEYS[3], id)
    ids[#ids + 1] = id
  end
end
if #ids > 0 then
  redis.call('EXPIRE', KEYS[3], 600)
end
return entries(ids)
