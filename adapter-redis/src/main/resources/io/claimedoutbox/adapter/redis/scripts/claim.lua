-- Claims up to N due entries of one shard for one worker, in one atomic step.
-- KEYS[1]  due index (PENDING and FAILED entries, scored by available/retry time)
-- KEYS[2]  in-flight index (CLAIMED entries, scored by lease end)
-- KEYS[3]  this call's record (a set of the ids it claimed), so a blind client retry of the same
--          call returns the same claims instead of claiming more
-- ARGV[1]  entry key prefix, ARGV[2] now, ARGV[3] max, ARGV[4] owner, ARGV[5] lease end,
-- ARGV[6]  write stamp of this call, ARGV[7..] one fresh token nonce per possible claim
-- Returns one HGETALL list per claimed entry, oldest due first. A damaged candidate aborts the
-- whole call before anything is written: OUTBOX_UNDECODABLE <id> <problem>.
local prefix, now, max = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
local owner, leaseEnd, stamp = ARGV[4], ARGV[5], ARGV[6]

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

local candidates = {}
for _, index in ipairs({KEYS[1], KEYS[2]}) do
  local due = redis.call('ZRANGE', index, '-inf', now, 'BYSCORE', 'LIMIT', 0, max, 'WITHSCORES')
  for i = 1, #due, 2 do
    candidates[#candidates + 1] = {id = due[i], due = tonumber(due[i + 1])}
  end
end
table.sort(candidates, function(a, b)
  if a.due ~= b.due then return a.due < b.due end
  return a.id < b.id
end)

local chosen = {}
for _, candidate in ipairs(candidates) do
  if #chosen == max then break end
  local key = prefix .. candidate.id
  local row = redis.call('HMGET', key, 'status', 'claimGeneration', 'attempts', 'revision', 'topic')
  if row[1] == false and row[4] == false then
    -- the index outlived its entry (deleted between index and hash): drop the stale index member
    redis.call('ZREM', KEYS[1], candidate.id)
    redis.call('ZREM', KEYS[2], candidate.id)
  else
    local status = row[1]
    if status ~= 'PENDING' and status ~= 'FAILED' and status ~= 'CLAIMED' then
      return redis.error_reply('OUTBOX_UNDECODABLE ' .. candidate.id .. ' indexed as due but status is ' .. tostring(status))
    end
    if tonumber(row[2]) == nil or tonumber(row[3]) == nil or tonumber(row[4]) == nil or row[5] == false then
      return redis.error_reply('OUTBOX_UNDECODABLE ' .. candidate.id .. ' claimGeneration, attempts, revision or topic is missing or not a number')
    end
    chosen[#chosen + 1] = {id = candidate.id, key = key, status = status,
      generation = tonumber(row[2]), attempts = tonumber(row[3]), revision = tonumber(row[4])}
  end
end

local ids = {}
for i, entry in ipairs(chosen) do
  redis.call('HSET', entry.key,
    'status', 'CLAIMED',
    'owner', owner,
    'tokenNonce', ARGV[6 + i],
    'claimedAt', now,
    'leaseUntil', leaseEnd,
    'updatedAt', now,
    'claimGeneration', entry.generation + 1,
    'attempts', entry.attempts + 1,
    'revision', entry.revision + 1,
    'writeStamp', stamp)
  redis.call('ZREM', KEYS[1], entry.id)
  redis.call('ZADD', KEYS[2], leaseEnd, entry.id)
  redis.call('SADD', KEYS[3], entry.id)
  ids[i] = entry.id
end
if #ids > 0 then
  redis.call('EXPIRE', KEYS[3], 600)
end
return entries(ids)
