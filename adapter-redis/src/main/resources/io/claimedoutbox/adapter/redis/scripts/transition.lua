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
-- {outcome, {state field values...}}. An element repeated with the same write stamp (a blind client retry) finds
-- its own stamp and answers APPLIED without writing again. Every row is checked before any is
-- written, so a damaged row fails the whole call with nothing written: {'UNDECODABLE', id, problem}.
-- An unknown transition is {'BAD_REQUEST', kind}, also before anything is written.
local now = ARGV[1]
local count = #KEYS - 2

-- The entry's state fields go back, in this order (TransitionScript.ANSWERED), false for absent ones:
-- the rest (id, topic, ordering key, payload, headers, creation time) never changes after the append,
-- and the client has it from its claim.
local ANSWERED = {'status', 'attempts', 'updatedAt', 'availableAt', 'claimGeneration', 'owner', 'tokenNonce',
  'claimedAt', 'leaseUntil', 'lastError', 'progress', 'deliveryReceipt', 'revision', 'writeStamp'}
local function answer(key, outcome)
  return {outcome, redis.call('HMGET', key, unpack(ANSWERED))}
end

-- Fields every entry has (EntryFields.ALWAYS_PRESENT): the payload is only tested for, the
-- others read with the fields the decision needs; a row missing one, or with no known status, is damaged.
-- One HMGET reads the decision's fields, the ordering key (row[6]) and the present fields; a row with
-- no status is looked at again to tell a missing entry from a damaged one.
local statuses = {PENDING = true, CLAIMED = true, FAILED = true, DELIVERED = true, DEAD_LETTERED = true}
local present = {'id', 'topic', 'headers', 'attempts', 'createdAt', 'updatedAt', 'availableAt', 'claimGeneration'}
local read = 6
local rows = {}
for i = 1, count do
  local key, id = KEYS[2 + i], ARGV[2 + 8 * (i - 1)]
  local row = redis.call('HMGET', key, 'status', 'owner', 'tokenNonce', 'writeStamp', 'revision', 'orderingKey',
    unpack(present))
  if row[1] ~= false or redis.call('EXISTS', key) == 1 then
    if not statuses[row[1]] or tonumber(row[5]) == nil then
      return {'UNDECODABLE', id, 'status or revision is missing, unknown or not a number'}
    end
    for f = 1, #present do
      if row[read + f] == false then
        return {'UNDECODABLE', id, 'field ' .. present[f] .. ' is missing'}
      end
    end
    if redis.call('HEXISTS', key, 'payload') == 0 then
      return {'UNDECODABLE', id, 'field payload is missing'}
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

-- Index changes shared by many elements are gathered and sent as one variadic command each at the
-- end (the batch has no entry twice: the caller checks): a redis.call costs about as much as the work
-- of a small command.
local leftInFlight, finishedScores = {}, {}
local function release(key, id, ...)
  redis.call('HDEL', key, 'owner', 'tokenNonce', 'claimedAt', 'leaseUntil', ...)
  leftInFlight[#leftInFlight + 1] = id
end

-- A finished entry (delivered or dead-lettered) leaves its ordering key's index, so the key's next
-- entry becomes claimable, and joins the finished index (scored by finish time, for the purge); a
-- dead letter also joins the dead-letter index (ordered by id). The failed set holds FAILED entries,
-- for the counts. Each is named from the due index's hash tag.
local tag = (string.gsub(KEYS[1], 'due$', ''))
local function finish(row, id)
  local orderingKey = row[6]
  if orderingKey then
    redis.call('ZREM', tag .. 'k:' .. orderingKey, id)
  end
  finishedScores[#finishedScores + 1] = now
  finishedScores[#finishedScores + 1] = id
end

local function each(command, key, values)
  for from = 1, #values, 1000 do
    redis.call(command, key, unpack(values, from, math.min(from + 999, #values)))
  end
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
    local revision = tonumber(row[5]) + 1
    if kind == 'DELIVERED' then
      if a == '1' then
        release(key, id)
        redis.call('HSET', key, 'status', 'DELIVERED', 'deliveryReceipt', b, 'updatedAt', now, 'writeStamp', stamp,
          'revision', revision)
      else
        release(key, id, 'deliveryReceipt')
        redis.call('HSET', key, 'status', 'DELIVERED', 'updatedAt', now, 'writeStamp', stamp, 'revision', revision)
      end
      finish(row, id)
    elseif kind == 'FAILED' then
      release(key, id)
      redis.call('HSET', key, 'status', 'FAILED', 'availableAt', a, 'lastError', b, 'updatedAt', now,
        'writeStamp', stamp, 'revision', revision)
      redis.call('ZADD', KEYS[1], a, id)
      redis.call('SADD', tag .. 'failed', id)
    elseif kind == 'DEAD_LETTERED' then
      release(key, id)
      redis.call('HSET', key, 'status', 'DEAD_LETTERED', 'lastError', a, 'updatedAt', now, 'writeStamp', stamp,
        'revision', revision)
      finish(row, id)
      redis.call('ZADD', tag .. 'dead', 0, id)
    elseif b == '1' then
      redis.call('HSET', key, 'leaseUntil', a, 'progress', c, 'updatedAt', now, 'writeStamp', stamp,
        'revision', revision)
      redis.call('ZADD', KEYS[2], a, id)
    else
      redis.call('HSET', key, 'leaseUntil', a, 'updatedAt', now, 'writeStamp', stamp, 'revision', revision)
      redis.call('ZADD', KEYS[2], a, id)
    end
    replies[i + 1] = answer(key, 'APPLIED')
  end
end
each('ZREM', KEYS[2], leftInFlight)
each('ZADD', tag .. 'finished', finishedScores)
return replies
