-- Decides and writes claimed transitions of one shard, each in the same atomic step as its
-- evaluation: an outcome comes from the state inside the script, so no concurrent writer can land
-- between evaluation and write. One element or many: the drain records a group in one call.
-- KEYS[1]  due index, KEYS[2] in-flight index, KEYS[2 + i] the hash of element i
-- ARGV[1]  now; then 8 arguments per element i, from ARGV[2 + 8 * (i - 1)]:
--          entry id, transition (DELIVERED, FAILED, DEAD_LETTERED, SAVE), claim owner,
--          claim token nonce, this attempt's write stamp, and three by transition:
--            DELIVERED: receipt flag ('1' or '0'), receipt, unused
--            FAILED: retry time, error, unused
--            DEAD_LETTERED: reason, unused, unused
--            SAVE: lease end, progress flag ('1' or '0'), progress
-- Returns {'OK', reply...} with one reply per element: {outcome} for MISSING, else
-- {outcome, HGETALL...}. An element repeated with the same write stamp (a blind client retry) finds
-- its own stamp and answers APPLIED without writing again. Every row is checked before any is
-- written, so a damaged row fails the whole call with nothing written: {'UNDECODABLE', id, problem}.
-- An unknown transition is {'BAD_REQUEST', kind}, also before anything is written.
local now = ARGV[1]
local count = #KEYS - 2

local function answer(key, outcome)
  local reply = {outcome}
  for _, value in ipairs(redis.call('HGETALL', key)) do
    reply[#reply + 1] = value
  end
  return reply
end

-- Fields every entry has (EntryFields.ALWAYS_PRESENT): payload and headers are only tested for, the
-- others read with the fields the decision needs; a row missing one, or with no known status, is damaged.
local statuses = {PENDING = true, CLAIMED = true, FAILED = true, DELIVERED = true, DEAD_LETTERED = true}
local present = {'id', 'topic', 'attempts', 'createdAt', 'updatedAt', 'availableAt', 'claimGeneration'}
local rows = {}
for i = 1, count do
  local key, id = KEYS[2 + i], ARGV[2 + 8 * (i - 1)]
  if redis.call('EXISTS', key) == 1 then
    local row = redis.call('HMGET', key, 'status', 'owner', 'tokenNonce', 'writeStamp', 'revision', unpack(present))
    if not statuses[row[1]] or tonumber(row[5]) == nil then
      return {'UNDECODABLE', id, 'status or revision is missing, unknown or not a number'}
    end
    for f = 1, #present do
      if row[5 + f] == false then
        return {'UNDECODABLE', id, 'field ' .. present[f] .. ' is missing'}
      end
    end
    if redis.call('HEXISTS', key, 'payload') == 0 or redis.call('HEXISTS', key, 'headers') == 0 then
      return {'UNDECODABLE', id, 'field payload or headers is missing'}
    end
    rows[i] = row
  end
end

for i = 1, count do
  local kind = ARGV[2 + 8 * (i - 1) + 1]
  if kind ~= 'DELIVERED' and kind ~= 'FAILED' and kind ~= 'DEAD_LETTERED' and kind ~= 'SAVE' then
    return {'BAD_REQUEST', tostring(kind)}
  end
end

local function release(key, id)
  redis.call('HDEL', key, 'owner', 'tokenNonce', 'claimedAt', 'leaseUntil')
  redis.call('ZREM', KEYS[2], id)
end

-- A finished entry (delivered or dead-lettered) leaves its ordering key's index, so the key's next
-- entry becomes claimable, and joins the finished index (scored by finish time, for the purge); a
-- dead letter also joins the dead-letter index (ordered by id). The failed set holds FAILED entries,
-- for the counts. Each is named from the due index's hash tag.
local tag = (string.gsub(KEYS[1], 'due$', ''))
local function finish(key, id)
  local orderingKey = redis.call('HGET', key, 'orderingKey')
  if orderingKey then
    redis.call('ZREM', tag .. 'k:' .. orderingKey, id)
  end
  redis.call('ZADD', tag .. 'finished', now, id)
end

local replies = {'OK'}
for i = 1, count do
  local base = 2 + 8 * (i - 1)
  local key, id, kind = KEYS[2 + i], ARGV[base], ARGV[base + 1]
  local owner, nonce, stamp = ARGV[base + 2], ARGV[base + 3], ARGV[base + 4]
  local a, b, c = ARGV[base + 5], ARGV[base + 6], ARGV[base + 7]
  local row = rows[i]
  if row == nil then
    replies[i + 1] = {'MISSING'}
  elseif row[4] == stamp then
    replies[i + 1] = answer(key, 'APPLIED')
  elseif row[1] == 'DELIVERED' or row[1] == 'DEAD_LETTERED' then
    replies[i + 1] = answer(key, 'TERMINAL')
  elseif row[1] ~= 'CLAIMED' or row[2] ~= owner or row[3] ~= nonce then
    replies[i + 1] = answer(key, 'STALE_CLAIM')
  else
    if kind == 'DELIVERED' then
      release(key, id)
      finish(key, id)
      redis.call('HSET', key, 'status', 'DELIVERED')
      if a == '1' then
        redis.call('HSET', key, 'deliveryReceipt', b)
      else
        redis.call('HDEL', key, 'deliveryReceipt')
      end
    elseif kind == 'FAILED' then
      release(key, id)
      redis.call('HSET', key, 'status', 'FAILED', 'availableAt', a, 'lastError', b)
      redis.call('ZADD', KEYS[1], a, id)
      redis.call('SADD', tag .. 'failed', id)
    elseif kind == 'DEAD_LETTERED' then
      release(key, id)
      finish(key, id)
      redis.call('HSET', key, 'status', 'DEAD_LETTERED', 'lastError', a)
      redis.call('ZADD', tag .. 'dead', 0, id)
    else
      redis.call('HSET', key, 'leaseUntil', a)
      if b == '1' then
        redis.call('HSET', key, 'progress', c)
      end
      redis.call('ZADD', KEYS[2], a, id)
    end
    redis.call('HSET', key, 'updatedAt', now, 'writeStamp', stamp, 'revision', tonumber(row[5]) + 1)
    replies[i + 1] = answer(key, 'APPLIED')
  end
end
return replies
