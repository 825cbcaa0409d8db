-- Puts index members back where their entries' hashes say they belong, in one atomic step, for
-- members a claim's peek offered as due that are not, or every member of a sweep of the due index
-- (those whose entries are pending or failed are left alone): a DELIVERED or DEAD_LETTERED entry leaves the
-- due and in-flight indexes; a CLAIMED entry leaves the due index for the in-flight index, scored by
-- its lease end, and an in-flight score behind its lease is raised to it. Versions before the fix
-- wrote an entry a drain took on append into the due index, where its delivery left it for good; a
-- claim's peek met those first and passed them over, so enough of them hid every entry behind them.
-- Entries in any other state, or gone, are left as they are (the caller repairs those).
-- KEYS[1]  due index, KEYS[2] in-flight index, KEYS[3…] the entries' hashes, in ARGV order
-- ARGV     the entries' ids
-- Returns {'OK', number of members moved or rescored}.
local moved = 0
for i, id in ipairs(ARGV) do
  local row = redis.call('HMGET', KEYS[i + 2], 'status', 'leaseUntil')
  if row[1] == 'DELIVERED' or row[1] == 'DEAD_LETTERED' then
    moved = moved + redis.call('ZREM', KEYS[1], id) + redis.call('ZREM', KEYS[2], id)
  elseif row[1] == 'CLAIMED' and row[2] then
    if redis.call('ZREM', KEYS[1], id) == 1 then
      redis.call('ZADD', KEYS[2], row[2], id)
      moved = moved + 1
    else
      moved = moved + redis.call('ZADD', KEYS[2], 'XX', 'GT', 'CH', row[2], id)
    end
  end
end
return {'OK', moved}
