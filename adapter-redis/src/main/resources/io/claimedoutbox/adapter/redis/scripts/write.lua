-- Conditional writes of claimed transitions on one shard. The caller computed each entry's next state
-- and the index moves it makes (TransitionKernel through RedisConditionalWrites); this script holds no
-- outcome: it compares, and writes where the comparison holds. An element is written where its hash is
-- still at the expected revision and CLAIMED under the claim's owner and token; the caller reads every
-- element that was not written and decides from what it finds.
-- KEYS     the elements' hashes, then the shard's due and held indexes, then the index keys their moves name
-- ARGV[1]  the number of elements n; then per element: the entry id, the expected revision, the claim's
--          owner and token nonce, s and s field/value pairs to set, d and d fields to delete, m and m moves of three
--          arguments each: a command (ZADD, ZREM, SADD, LEAVE), the index of its key in KEYS, the member; a ZADD
--          move has its score as a fourth argument. LEAVE takes the member out of its ordering key's index
--          and then moves the key's new first entry, if it waits in the held index, to the due index with
--          its score: the entries behind a key's first are not in the due index (see append.lua).
-- Returns {'OK', written...}: 1 or 0 per element, in order. A hash that exists but lacks a field every
-- entry has, or whose status or revision is unreadable, fails the whole call before anything is written:
-- {'UNDECODABLE', id, problem}.
local count = tonumber(ARGV[1])
local dueIndex, heldIndex = KEYS[count + 1], KEYS[count + 2]
local statuses = {PENDING = true, CLAIMED = true, FAILED = true, DELIVERED = true, DEAD_LETTERED = true}
-- EntryFields.ALWAYS_PRESENT but the payload, which is only tested for (a large one is never copied here)
local present = {'id', 'topic', 'headers', 'attempts', 'createdAt', 'updatedAt', 'availableAt', 'claimGeneration'}
local compared = 4

local elements = {}
local at = 2
for i = 1, count do
  local element = {key = KEYS[i], id = ARGV[at], revision = ARGV[at + 1], owner = ARGV[at + 2],
    nonce = ARGV[at + 3]}
  local sets = tonumber(ARGV[at + 4])
  element.set = {at + 5, at + 4 + 2 * sets}
  at = at + 5 + 2 * sets
  local deletes = tonumber(ARGV[at])
  element.delete = {at + 1, at + deletes}
  at = at + 1 + deletes
  local moves = tonumber(ARGV[at])
  element.moves = {at + 1, moves}
  at = at + 1
  for _ = 1, moves do
    at = at + (ARGV[at] == 'ZADD' and 4 or 3)
  end
  elements[i] = element
end

for i = 1, count do
  local element = elements[i]
  local row = redis.call('HMGET', element.key, 'revision', 'status', 'owner', 'tokenNonce', unpack(present))
  if row[1] ~= false or redis.call('EXISTS', element.key) == 1 then
    local id = element.id
    if not statuses[row[2]] or tonumber(row[1]) == nil then
      return {'UNDECODABLE', id, 'status or revision is missing, unknown or not a number'}
    end
    for f = 1, #present do
      if row[compared + f] == false then
        return {'UNDECODABLE', id, 'field ' .. present[f] .. ' is missing'}
      end
    end
    if redis.call('HEXISTS', element.key, 'payload') == 0 then
      return {'UNDECODABLE', id, 'field payload is missing'}
    end
    element.matches = row[1] == element.revision and row[2] == 'CLAIMED' and row[3] == element.owner
      and row[4] == element.nonce
  end
end

-- Index moves are gathered per command and key and sent as one variadic command each at the end (a
-- redis.call costs about as much as the work of a small command); the elements name distinct entries.
local gathered, order = {}, {}
local keysLeft, leftOrder = {}, {}
local function gather(command, key, ...)
  local name = command .. ' ' .. key
  if gathered[name] == nil then
    gathered[name] = {command = command, key = key, values = {}}
    order[#order + 1] = name
  end
  local values = gathered[name].values
  for _, value in ipairs({...}) do
    values[#values + 1] = value
  end
end

local replies = {'OK'}
for i = 1, count do
  local element = elements[i]
  if element.matches then
    if element.set[2] >= element.set[1] then
      redis.call('HSET', element.key, unpack(ARGV, element.set[1], element.set[2]))
    end
    if element.delete[2] >= element.delete[1] then
      redis.call('HDEL', element.key, unpack(ARGV, element.delete[1], element.delete[2]))
    end
    local move = element.moves[1]
    for _ = 1, element.moves[2] do
      local command, key = ARGV[move], KEYS[tonumber(ARGV[move + 1])]
      if command == 'ZADD' then
        gather(command, key, ARGV[move + 3], ARGV[move + 2])
        move = move + 4
      elseif command == 'LEAVE' then
        gather('ZREM', key, ARGV[move + 2])
        if not keysLeft[key] then
          keysLeft[key] = true
          leftOrder[#leftOrder + 1] = key
        end
        move = move + 3
      else
        gather(command, key, ARGV[move + 2])
        move = move + 3
      end
    end
    replies[i + 1] = 1
  else
    replies[i + 1] = 0
  end
end

for _, name in ipairs(order) do
  local command = gathered[name]
  for from = 1, #command.values, 1000 do
    redis.call(command.command, command.key, unpack(command.values, from, math.min(from + 999, #command.values)))
  end
end

for _, key in ipairs(leftOrder) do
  local first = redis.call('ZRANGE', key, 0, 0)[1]
  local score = first and redis.call('ZSCORE', heldIndex, first)
  if score then
    redis.call('ZREM', heldIndex, first)
    redis.call('ZADD', dueIndex, score, first)
  end
end
return replies
