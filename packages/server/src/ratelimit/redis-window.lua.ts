/**
 * The shared rolling window, as one atomic Redis script per request: a sorted set of admission
 * times per bucket (a sliding log). Time is Redis's own (`TIME`), so the clocks of the
 * instances do not matter. Returns {allowed, minuteCount, retryAfterMs, resetAtMs, nowMs,
 * minuteFull}.
 *
 * Refused requests are not added: they consume nothing. The set expires a minute after its
 * newest admission, so idle buckets cost nothing.
 */
export const ROLLING_WINDOW_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local key = KEYS[1]
local perMinute = tonumber(ARGV[1])
local perSecond = tonumber(ARGV[2])
local function ms(x) return string.format('%.0f', x) end

redis.call('ZREMRANGEBYSCORE', key, '-inf', ms(now - 60000))
local minute = redis.call('ZCARD', key)
local second = redis.call('ZCOUNT', key, '(' .. ms(now - 1000), '+inf')

local allowed = 0
if minute < perMinute and second < perSecond then
  redis.call('ZADD', key, now, ms(now) .. ':' .. ARGV[3])
  redis.call('PEXPIRE', key, 60000)
  minute = minute + 1
  allowed = 1
end

local retry = 0
if allowed == 0 then
  local free = now
  if minute >= perMinute then
    local e = redis.call('ZRANGE', key, minute - perMinute, minute - perMinute, 'WITHSCORES')
    free = math.max(free, tonumber(e[2]) + 60000)
  end
  if second >= perSecond then
    local e = redis.call('ZRANGEBYSCORE', key, '(' .. ms(now - 1000), '+inf', 'WITHSCORES', 'LIMIT', second - perSecond, 1)
    free = math.max(free, tonumber(e[2]) + 1000)
  end
  retry = free - now
end

local reset = now
if minute > 0 then
  local newest = redis.call('ZRANGE', key, -1, -1, 'WITHSCORES')
  reset = tonumber(newest[2]) + 60000
end
local minuteFull = 0
if minute >= perMinute then minuteFull = 1 end
return {allowed, minute, ms(retry), ms(reset), ms(now), minuteFull}
`;
