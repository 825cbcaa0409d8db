-- The oldest due entries of one shard that a claim may take, read without claiming them: a claim
-- decodes every candidate before it writes anything, so a damaged row fails the whole batch with
-- nothing written. An entry with an ordering key is a candidate only while it is the first member of
-- its key's index ({prefix:s}:k:<key>, named from the due index's hash tag): the key's first
-- unfinished entry. Later entries of busy keys are passed over, reading on, up to 8 pages.
-- KEYS[1]  due index, KEYS[2] in-flight index
-- ARGV[1]  now (epoch millis), ARGV[2] how many, ARGV[3] entry key prefix
-- Returns {'OK', candidate...}: one {id, due millis, HGETALL...} per candidate, from both indexes
-- (unsorted between them).
-- An index member whose hash is gone (deleted meanwhile) is dropped from the index, not returned.
local tag = (string.gsub(KEYS[1], 'due$', ''))
local wanted = tonumber(ARGV[2])
local found = {'OK'}

local function firstOfItsKey(id, hash)
  for f = 1, #hash, 2 do
    if hash[f] == 'orderingKey' then
      local first = redis.call('ZRANGE', tag .. 'k:' .. hash[f + 1], 0, 0)
      return first[1] == id
    end
  end
  return true
end

for _, index in ipairs(KEYS) do
  local taken = 0
  for page = 0, 7 do
    local due = redis.call('ZRANGE', index, '-inf', ARGV[1], 'BYSCORE', 'LIMIT', page * wanted, wanted, 'WITHSCORES')
    for i = 1, #due, 2 do
      local hash = redis.call('HGETALL', ARGV[3] .. due[i])
      if #hash == 0 then
        redis.call('ZREM', index, due[i])
      elseif taken < wanted and firstOfItsKey(due[i], hash) then
        local candidate = {due[i], due[i + 1]}
        for _, value in ipairs(hash) do
          candidate[#candidate + 1] = value
        end
        found[#found + 1] = candidate
        taken = taken + 1
      end
    end
    if taken >= wanted or #due < 2 * wanted then
      break
    end
  end
end
return found
