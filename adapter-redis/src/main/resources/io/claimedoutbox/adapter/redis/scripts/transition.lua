-- Decides and writes one claimed transition in one atomic step: the outcome comes from the state
-- inside the script, so a concurrent writer can never land between evaluation and write.
-- KEYS[1]  the entry hash, KEYS[2] due index, KEYS[3] in-flight index
-- ARGV[1]  entry id, ARGV[2] transition (DELIVERED, FAILED, DEAD_LETTERED, SAVE),
-- ARGV[3]  claim owner, ARGV[4] claim token nonce, ARGV[5] now, ARGV[6] this call's write stamp,
-- ARGV[7], ARGV[8]: DELIVERED: receipt flag ('1' or '0'), receipt
--                   FAILED: retry time, error
--                   DEAD_LETTERED: reason, unused
--                   SAVE: lease end, progress flag ('1' or '0'); ARGV[9]: progress
-- Returns {outcome} for MISSING, else {outcome, HGETALL...}. A call repeated with the same write
-- stamp (a blind client retry) finds its own stamp and answers APPLIED without writing again.
local key, id, kind = KEYS[1], ARGV[1], ARGV[2]
local owner, nonce, now, stamp = ARGV[3], ARGV[4], ARGV[5], ARGV[6]

if redis.call('EXISTS', key) == 0 then
  return {'MISSING'}
end
local row = redis.call('HMGET', key, 'status', 'owner', 'tokenNonce', 'writeStamp', 'revision')
local status, revision = row[1], tonumber(row[5])
if status == false or revision == nil then
  return redis.error_reply('OUTBOX_UNDECODABLE ' .. id .. ' status or revision is missing or not a number')
end

local function answer(outcome)
  local reply = {outcome}
  for _, value in ipairs(redis.call('HGETALL', key)) do
    reply[#reply + 1] = value
  end
  return reply
end

if row[4] == stamp then
  return answer('APPLIED')
end
if status == 'DELIVERED' or status == 'DEAD_LETTERED' then
  return answer('TERMINAL')
end
if status ~= 'CLAIMED' or row[2] ~= owner or row[3] ~= nonce then
  return answer('STALE_CLAIM')
end

local function release()
  redis.call('HDEL', key, 'owner', 'tokenNonce', 'claimedAt', 'leaseUntil')
  redis.call('ZREM', KEYS[3], id)
end

if kind == 'DELIVERED' then
  release()
  redis.call('HSET', key, 'status', 'DELIVERED')
  if ARGV[7] == '1' then
    redis.call('HSET', key, 'deliveryReceipt', ARGV[8])
  else
    redis.call('HDEL', key, 'deliveryReceipt')
  end
elseif kind == 'FAILED' then
  release()
  redis.call('HSET', key, 'status', 'FAILED', 'availableAt', ARGV[7], 'lastError', ARGV[8])
  redis.call('ZADD', KEYS[2], ARGV[7], id)
elseif kind == 'DEAD_LETTERED' then
  release()
  redis.call('HSET', key, 'status', 'DEAD_LETTERED', 'lastError', ARGV[7])
elseif kind == 'SAVE' then
  redis.call('HSET', key, 'leaseUntil', ARGV[7])
  if ARGV[8] == '1' then
    redis.call('HSET', key, 'progress', ARGV[9])
  end
  redis.call('ZADD', KEYS[3], ARGV[7], id)
else
  return redis.error_reply('OUTBOX_BAD_REQUEST unknown transition ' .. tostring(kind))
end
redis.call('HSET', key, 'updatedAt', now, 'writeStamp', stamp, 'revision', revision + 1)
return answer('APPLIED')
