-- Reads entries by the keys the caller passes, in order, in one atomic step: a page of dead letters.
-- Nothing is written. (A claim reads its candidates with plain HGETALLs: CandidateRead.)
-- KEYS     the entries' hashes, in the order wanted
-- ARGV[1]  the most payload bytes to read over all of them: reading stops before the first entry
--          whose payload would not fit (the first always does); that entry is read and dropped, once
--          per call, which is cheaper than asking every entry's size before reading it
-- ARGV[2]  a topic: an entry of another topic is answered 0, not read ('' reads every topic)
-- Returns {'OK', found...}: per key read, its HGETALL (empty when the entry is gone) or 0 (another
-- topic); shorter than KEYS when the payload limit stopped it.
local maxBytes, topic = tonumber(ARGV[1]), ARGV[2]
local found = {'OK'}
local bytes, taken = 0, 0

local function payloadSize(hash)
  for f = 1, #hash, 2 do
    if hash[f] == 'payload' then
      return #hash[f + 1]
    end
  end
  return 0
end

for i = 1, #KEYS do
  if topic ~= '' and redis.call('HGET', KEYS[i], 'topic') ~= topic then
    found[#found + 1] = 0
  else
    local hash = redis.call('HGETALL', KEYS[i])
    local size = payloadSize(hash)
    if taken > 0 and bytes + size > maxBytes then
      return found
    end
    bytes, taken = bytes + size, taken + 1
    found[#found + 1] = hash
  end
end
return found
