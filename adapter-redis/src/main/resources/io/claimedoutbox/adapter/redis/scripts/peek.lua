-- The oldest due entries of one shard that a claim may take, read without claiming them: a claim
-- decodes every candidate before it writes anything, so a damaged row fails the whole batch with
-- nothing written. An entry with an ordering key is a candidate only while it is the first member of
-- its key's index ({prefix:s}:k:<key>, named from the due index's hash tag): the key's first
-- unfinished entry. Appends and requeues put the entries behind it in the held index, not the due
-- index, so a claim does not read past a key's backlog; an entry found held back in the due index
-- all the same (written by an earlier version, or behind a dead letter requeued ahead of it) is moved
-- to the held index with its score, at most ARGV[5] of them per call, so the walk is paid once and
-- one call stays short. Reading goes on until enough candidates are found, the index ends or that
-- many were moved; a key found held back once costs one HGET per further entry of it.
-- Each index's candidates are taken while their payloads fit ARGV[4] bytes (its first always does),
-- measured on the hash as read (the first that does not fit is read and dropped): the reply carries
-- at most the limit per index, and the oldest entries that fit the limit over both indexes are among
-- them (the caller merges).
-- KEYS[1]  due index, KEYS[2] in-flight index, KEYS[3] held index
-- ARGV[1]  now (epoch millis), ARGV[2] how many, ARGV[3] entry key prefix, ARGV[4] most payload bytes,
--          ARGV[5] the most held-back entries to move per call
-- Returns {'OK', candidate...}: one {id, due millis, {HGETALL...}} per candidate, from both indexes
-- (unsorted between them).
-- An index member whose hash is gone (deleted meanwhile) is dropped from the index, not returned.
local tag = (string.gsub(KEYS[1], 'due$', ''))
local wanted = tonumber(ARGV[2])
local maxBytes = tonumber(ARGV[4])
local moveLimit = tonumber(ARGV[5])
local moved = 0
local found = {'OK'}
-- ordering key to its first unfinished entry, for keys found holding an entry back
local firstOfKey = {}

-- The entry's ordering key (nil when it has none) and its payload's size in bytes.
local function orderingKeyAndSize(hash)
  local key, size = nil, 0
  for f = 1, #hash, 2 do
    if hash[f] == 'orderingKey' then
      key = hash[f + 1]
    elseif hash[f] == 'payload' then
      size = #hash[f + 1]
    end
  end
  return key, size
end

-- Whether a key already found holding entries back holds this one too: one HGET instead of HGETALL,
-- and nothing at all while no key was found holding anything back.
local function heldBackByKnownKey(id)
  if next(firstOfKey) == nil then
    return false
  end
  local key = redis.call('HGET', ARGV[3] .. id, 'orderingKey')
  return key and firstOfKey[key] ~= nil and firstOfKey[key] ~= id
end

-- Takes a held-back member out of the due index into the held index, where the transition that
-- finishes its key's first entry finds it; an in-flight member stays (its lease end must be seen).
local function holdBack(index, id, score)
  if index == KEYS[1] then
    redis.call('ZREM', index, id)
    redis.call('ZADD', KEYS[3], score, id)
    moved = moved + 1
    return 1
  end
  return 0
end

-- Whether reading may go on: the due index stops once the call moved its most, the in-flight index
-- (whose expired leases must be found) never does.
local function mayRead(index)
  return index ~= KEYS[1] or moved < moveLimit
end

for _, index in ipairs({KEYS[1], KEYS[2]}) do
  local taken = 0
  local offset = 0
  local bytes = 0
  local full = false
  while taken < wanted and not full and mayRead(index) do
    local due = redis.call('ZRANGE', index, '-inf', ARGV[1], 'BYSCORE', 'LIMIT', offset, wanted, 'WITHSCORES')
    -- members removed from this page shift the next one back
    local removed = 0
    for i = 1, #due, 2 do
      local id = due[i]
      if taken < wanted and not full and mayRead(index) then
        if heldBackByKnownKey(id) then
          removed = removed + holdBack(index, id, due[i + 1])
        else
          local hash = redis.call('HGETALL', ARGV[3] .. id)
          local key, size = orderingKeyAndSize(hash)
          if #hash == 0 then
            redis.call('ZREM', index, id)
            removed = removed + 1
          elseif taken > 0 and bytes + size > maxBytes then
            -- read in vain, once per claim: cheaper than asking every entry's size before reading it
            full = true
          else
            -- nil when the key has no index (an entry appended before ordering keys were indexed): not held
            local first = key and redis.call('ZRANGE', tag .. 'k:' .. key, 0, 0)[1]
            if first and first ~= id then
              firstOfKey[key] = first
              removed = removed + holdBack(index, id, due[i + 1])
            else
              found[#found + 1] = {id, due[i + 1], hash}
              taken = taken + 1
              bytes = bytes + size
            end
          end
        end
      end
    end
    if #due < 2 * wanted then
      break
    end
    offset = offset + wanted - removed
  end
end
return found
