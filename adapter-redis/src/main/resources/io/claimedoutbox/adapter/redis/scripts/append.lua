-- Appends a batch of entries to one shard, atomically: every id is checked before anything is written.
-- KEYS[1]  the shard's due index (sorted set: entry id scored by due time in epoch millis), KEYS[2]
--          its held index (the same, for entries behind an earlier unfinished entry of their key),
--          KEYS[3] its in-flight index (an entry a drain of the appending JVM took on append is written
--          CLAIMED and scored by its lease end there, like any claim, so its delivery takes it out of
--          every index); then the index of each ordering key the batch holds, {prefix:s}:k:<key>; last,
--          each entry's hash, in the entries' order
-- ARGV[1]  the number of entries; then, per entry: id, due millis, the KEYS position of its ordering
--          key's index (0 for none), field count k, k field/value pairs
-- An entry with an ordering key also joins its key's index, scored by append time, so a claim can
-- tell the first unfinished entry of a key; it joins the due index only when it is that first entry,
-- and the held index otherwise, so a claim never reads past a key's backlog (a transition finishing
-- the key's first entry moves the next one over). Every key written is in KEYS.
-- Returns {'OK', count}. A batch repeated with the same write stamps (a client retry after a lost
-- reply) finds its own entries and answers as the first run did, writing nothing. An id stored
-- already by another write is {'DUPLICATE', id}, with nothing of the batch written.
local count = tonumber(ARGV[1])
local hashBase = #KEYS - count
local entries = {}
local repeated = 0
local at = 2
for i = 1, count do
  local id, due, keyIndex, fields = ARGV[at], ARGV[at + 1], tonumber(ARGV[at + 2]), tonumber(ARGV[at + 3])
  local first, last = at + 4, at + 3 + 2 * fields
  local hash = KEYS[hashBase + i]
  if redis.call('EXISTS', hash) == 1 then
    local stamp = nil
    for f = first, last, 2 do
      if ARGV[f] == 'writeStamp' then stamp = ARGV[f + 1] end
    end
    if stamp == nil or redis.call('HGET', hash, 'writeStamp') ~= stamp then
      return {'DUPLICATE', id}
    end
    repeated = repeated + 1
  end
  entries[i] = {id = id, hash = hash, due = due, keyIndex = keyIndex, first = first, last = last}
  at = at + 4 + 2 * fields
end
if repeated == count then
  return {'OK', count}
end
if repeated > 0 then
  return {'DUPLICATE', 'part of the batch'}
end
local function field(entry, name)
  for f = entry.first, entry.last, 2 do
    if ARGV[f] == name then return ARGV[f + 1] end
  end
  return nil
end
for _, entry in ipairs(entries) do
  redis.call('HSET', entry.hash, unpack(ARGV, entry.first, entry.last))
  local index = KEYS[1]
  if entry.keyIndex > 0 then
    redis.call('ZADD', KEYS[entry.keyIndex], field(entry, 'createdAt'), entry.id)
    if redis.call('ZRANGE', KEYS[entry.keyIndex], 0, 0)[1] ~= entry.id then
      index = KEYS[2]
    end
  end
  if field(entry, 'status') == 'CLAIMED' then
    index = KEYS[3]
  end
  redis.call('ZADD', index, entry.due, entry.id)
end
return {'OK', count}
