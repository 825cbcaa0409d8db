-- The counts and oldest due times of one shard, read in one atomic step.
-- KEYS[1] due index (PENDING and FAILED), KEYS[2] in-flight index (CLAIMED), KEYS[3] failed set,
-- KEYS[4] finished index (DELIVERED and DEAD_LETTERED), KEYS[5] dead-letter index, KEYS[6] held index
-- (PENDING entries behind their ordering key's first: waiting, so counted and aged with the due ones)
-- Returns {'OK', due, failed, in flight, finished, dead letters, oldest due millis, earliest lease
-- end millis}, each of the last two '' when its indexes are empty.
local function earliest(key)
  local head = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
  if #head == 0 then
    return ''
  end
  return head[2]
end
local function earliestWaiting()
  local due, held = earliest(KEYS[1]), earliest(KEYS[6])
  if due == '' or (held ~= '' and tonumber(held) < tonumber(due)) then
    return held
  end
  return due
end
return {'OK', redis.call('ZCARD', KEYS[1]) + redis.call('ZCARD', KEYS[6]), redis.call('SCARD', KEYS[3]),
  redis.call('ZCARD', KEYS[2]), redis.call('ZCARD', KEYS[4]), redis.call('ZCARD', KEYS[5]), earliestWaiting(),
  earliest(KEYS[2])}
