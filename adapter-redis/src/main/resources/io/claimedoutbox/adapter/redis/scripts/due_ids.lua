-- The ids at the head of one shard's due and in-flight indexes whose scores are due, read in one
-- atomic step: the first half of a claim's peek. The caller merges both by score and reads the
-- hashes with plain HGETALLs (CandidateRead); a script that named entry keys from the members it
-- read would hide keys from Redis (and from a Cluster's routing).
-- Only a key's first unfinished entry is in the due index (the others wait in the held index), so
-- these are candidates; one the claim finds held back all the same (an index an earlier version
-- wrote) is moved to the held index by claim.lua.
-- KEYS[1] due index, KEYS[2] in-flight index
-- ARGV[1] now (epoch millis), ARGV[2] how many of each
-- Returns {'OK', {id, score, ...} of the due index, {id, score, ...} of the in-flight index}.
local function head(index)
  return redis.call('ZRANGE', index, '-inf', ARGV[1], 'BYSCORE', 'LIMIT', 0, ARGV[2], 'WITHSCORES')
end
return {'OK', head(KEYS[1]), head(KEYS[2])}
