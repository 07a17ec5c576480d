-- wrk script: POST /v1/payments, each request a new Idempotency-Key (a first execution), spread
-- round-robin over the accounts in env ACCOUNTS (comma-separated), or one fixed key when
-- env REPLAY_KEY is set (every request after the first is a replay).
local counter = 0
local thread_id = 0
local threads = {}

function setup(thread)
  thread_id = thread_id + 1
  thread:set("tid", thread_id)
  table.insert(threads, thread)
end

local accounts = {}
for a in string.gmatch(os.getenv("ACCOUNTS") or "", "[^,]+") do
  table.insert(accounts, a)
end
local api_key = os.getenv("API_KEY")
local replay_key = os.getenv("REPLAY_KEY")
local run = os.getenv("RUN") or tostring(os.time())

function request()
  counter = counter + 1
  local account = accounts[(counter % #accounts) + 1]
  local key = replay_key or ("bench-" .. run .. "-" .. tid .. "-" .. counter)
  if replay_key then
    account = accounts[1]
  end
  local body = '{"accountId":"' .. account .. '","amount":"0.01","currency":"EUR"}'
  return wrk.format("POST", "/v1/payments", {
    ["Authorization"] = "Bearer " .. api_key,
    ["Idempotency-Key"] = key,
    ["Content-Type"] = "application/json",
  }, body)
end

local shown = false
function response(status, headers, body)
  if status >= 300 and not shown and os.getenv("BENCH_DEBUG") then
    shown = true
    io.write("first non-2xx: " .. status .. " " .. body .. "\n")
  end
end

function done(summary, latency, requests)
  io.write(string.format("requests=%d errors(socket)=%d non2xx=%d\n", summary.requests,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
    summary.errors.status))
end
