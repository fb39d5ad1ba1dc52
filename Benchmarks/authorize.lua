-- wrk script: load GET /auth/authorize on a server in headless mode (--auto-approve first), so that
-- every request runs the authorization checks and issues a code (302 to the redirect URI).
--
-- Usage (see scale_benchmark.py):
--   wrk -t2 -c32 -d10s -s Benchmarks/authorize.lua http://127.0.0.1:PORT -- CLIENT_ID REDIRECT_URI
--
-- done() prints "bench." lines: ok (3xx answers, the approved authorizations), others, rate, p50, p99.

local threads = {}

function setup(thread)
   table.insert(threads, thread)
end

local function percent_encode(s)
   return (string.gsub(s, "[^%w%-%._~]", function(c)
      return string.format("%%%02X", string.byte(c))
   end))
end

function init(args)
   local client_id, redirect_uri = args[1], args[2]
   assert(client_id and redirect_uri, "usage: -- CLIENT_ID REDIRECT_URI")
   local path = "/auth/authorize?response_type=code&response_mode=query&state=bench&client_id="
      .. percent_encode(client_id) .. "&redirect_uri=" .. percent_encode(redirect_uri)
   prepared = wrk.format("GET", path, {}, nil)
   ok = 0
   others = 0
end

function request()
   return prepared
end

function response(status, headers, body)
   if status >= 300 and status <= 399 then ok = ok + 1 else others = others + 1 end
end

function done(summary, latency, requests)
   local ok_total, others_total = 0, 0
   for _, thread in ipairs(threads) do
      ok_total = ok_total + (thread:get("ok") or 0)
      others_total = others_total + (thread:get("others") or 0)
   end
   local seconds = summary.duration / 1e6
   io.write(string.format("bench.ok=%d\nbench.others=%d\n", ok_total, others_total))
   io.write(string.format("bench.ok_per_sec=%.1f\n", ok_total / seconds))
   io.write(string.format("bench.p50_ms=%.2f\nbench.p99_ms=%.2f\n", latency:percentile(50.0) / 1000, latency:percentile(99.0) / 1000))
end
