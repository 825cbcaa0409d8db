-- One shard's dead letters with ids after a given one, in id order, by topic when asked. Reads at
-- most 1,000 ids of the dead-letter index per call, so a topic filter over many other topics' dead
-- letters never blocks the server for long; the caller continues from the last id read.
-- KEYS[1] dead-letter index (score 0, ordered by id)
-- ARGV[1] entry key prefix, ARGV[2] the id to start after ('' from the start), ARGV[3] topic ('' for
-- every topic), ARGV[4] the most to return
-- Returns {'OK', last id read ('' when the index is exhausted), HGETALL...}.
local prefix, after, topic, limit = ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4])
local from = '-'
if after ~= '' then
  from = '(' .. after
end
local reply = {'OK', ''}
local read = 0
while #reply - 2 < limit and read < 1000 do
  local ids = redis.call('ZRANGEBYLEX', KEYS[1], from, '+', 'LIMIT', 0, 100)
  if #ids == 0 then
    reply[2] = ''
    return reply
  end
  for _, id in ipairs(ids) do
    read = read + 1
    reply[2] = id
    if topic == '' or redis.call('HGET', prefix .. id, 'topic') == topic then
      reply[#reply + 1] = redis.call('HGETALL', prefix .. id)
      if #reply - 2 == limit then
        return reply
      end
    end
  end
  from = '(' .. ids[#ids]
end
return reply
