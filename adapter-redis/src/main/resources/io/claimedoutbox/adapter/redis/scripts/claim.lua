-- Writes chosen claims of one shard, in one atomic step. The caller read and decoded every
-- candidate first (due_ids.lua, read.lua) and computed each claimed entry with the domain's claim
-- step, so this script holds no claim logic: it is a compare-and-set on the revision read, and, for
-- an entry with an ordering key, on the entry still being its key's first unfinished one. A candidate
-- whose revision moved since (another worker claimed it, or it was finished or deleted) is skipped.
-- A keyed candidate that is not its key's first (found in a due index an earlier version wrote, which
-- held every entry there) is skipped and moved from the due index to the held index with its score,
-- where the transition that finishes its key's first entry finds it (write.lua, LEAVE).
-- KEYS[1]  due index (PENDING and FAILED entries, scored by available/retry time)
-- KEYS[2]  in-flight index (CLAIMED entries, scored by lease end)
-- KEYS[3]  this call's record (a set of the ids it claimed), so a blind client retry of the same
--          call answers with the claims it made instead of claiming more
-- KEYS[4]  the failed set (for the counts): a claimed entry is FAILED no more
-- KEYS[5]  the held index: a claimed entry is in neither index of waiting entries, whichever the
--          caller found it through (a claim by key reads the key's index, not the due index)
-- KEYS[6…] each candidate's hash, in candidate order; then the ordering-key indexes the candidates
--          name: every key the script touches is declared
-- ARGV[1]  write stamp of this call; then per candidate: id, the revision it was read at, its lease
--          end, the position in KEYS of its ordering key's index (0 without a key), a field count k and
--          k field/value pairs of the claimed state
-- Returns {'OK', id...} with the ids claimed, in candidate order; or, when this call ran before,
-- {'REPEATED', HGETALL...} with the entries that call claimed and still hold its stamp.
local stamp = ARGV[1]
local failed = KEYS[4]

-- The candidates' hashes by id: a repeat of this call names the same candidates, so every id its
-- record holds is among them.
local function hashesById()
  local hashes = {}
  local at, candidate = 2, 6
  while at <= #ARGV do
    hashes[ARGV[at]] = KEYS[candidate]
    candidate = candidate + 1
    at = at + 5 + 2 * tonumber(ARGV[at + 4])
  end
  return hashes
end

if redis.call('EXISTS', KEYS[3]) == 1 then
  local reply = {'REPEATED'}
  local hashes = hashesById()
  for _, id in ipairs(redis.call('SMEMBERS', KEYS[3])) do
    local key = hashes[id]
    if key and redis.call('HGET', key, 'writeStamp') == stamp then
      reply[#reply + 1] = redis.call('HGETALL', key)
    end
  end
  return reply
end

-- Index moves are gathered and sent as one variadic command each at the end (a redis.call costs
-- about as much as the work of a small command): two calls per claimed entry instead of six.
local function each(command, key, values)
  for from = 1, #values, 1000 do
    redis.call(command, key, unpack(values, from, math.min(from + 999, #values)))
  end
end

-- Whether a keyed candidate is still its key's first unfinished entry; one that is not leaves the
-- due index for the held index (an in-flight one stays: its lease end must be seen).
local function firstOfItsKey(id, keyIndex)
  if keyIndex == 0 then
    return true
  end
  -- nil when the key has no index (an entry appended before ordering keys were indexed): not held
  local first = redis.call('ZRANGE', KEYS[keyIndex], 0, 0)[1]
  if not first or first == id then
    return true
  end
  local score = redis.call('ZSCORE', KEYS[1], id)
  if score then
    redis.call('ZREM', KEYS[1], id)
    redis.call('ZADD', KEYS[5], score, id)
  end
  return false
end

local reply = {'OK'}
local claimedIds, leases, wereFailed = {}, {}, {}
local at, candidate = 2, 6
while at <= #ARGV do
  local id, expected, leaseEnd = ARGV[at], ARGV[at + 1], ARGV[at + 2]
  local keyIndex, fields = tonumber(ARGV[at + 3]), tonumber(ARGV[at + 4])
  local first, last = at + 5, at + 4 + 2 * fields
  local key = KEYS[candidate]
  candidate = candidate + 1
  local row = redis.call('HMGET', key, 'revision', 'status')
  if row[1] == expected and firstOfItsKey(id, keyIndex) then
    redis.call('HSET', key, unpack(ARGV, first, last))
    claimedIds[#claimedIds + 1] = id
    leases[#leases + 1] = leaseEnd
    leases[#leases + 1] = id
    if row[2] == 'FAILED' then
      wereFailed[#wereFailed + 1] = id
    end
    reply[#reply + 1] = id
  end
  at = last + 1
end
if #claimedIds > 0 then
  each('ZREM', KEYS[1], claimedIds)
  each('ZREM', KEYS[5], claimedIds)
  each('ZADD', KEYS[2], leases)
  each('SREM', failed, wereFailed)
  each('SADD', KEYS[3], claimedIds)
  redis.call('EXPIRE', KEYS[3], 600)
end
return reply
