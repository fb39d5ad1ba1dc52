-- wrk script: load POST /auth/token with the authorization_code grant.
--
-- Usage (see token-benchmark.sh):
--   wrk -t2 -c64 -d10s -s Benchmarks/token.lua http://127.0.0.1:PORT/auth/token \
--       -- CODES_FILE CLIENT_ID CLIENT_SECRET REDIRECT_URI THREAD_COUNT [GRANT]
--
-- With GRANT=refresh_token, CODES_FILE holds one refresh token, which every
-- request presents (the refresh grant; Apple's refresh tokens are reusable).
--
-- Every authorization code is single-use, so each code in CODES_FILE (one per
-- line) is sent at most once across all wrk threads: thread i (0-based) of k
-- takes lines i+1, i+1+k, i+1+2k, ... When a thread runs out of codes it
-- stops itself; requests it still has to produce meanwhile go to a path that
-- is not the token endpoint and are counted as "filler", never as 2xx.
--
-- done() prints machine-readable lines prefixed with "bench." that the shell
-- script parses.

local FILLER_PATH = "/__benchmark_codes_exhausted__"

-- Main (setup/done) Lua state -------------------------------------------------

local threads = {}
local next_thread_id = 0

function setup(thread)
   thread:set("thread_id", next_thread_id)
   next_thread_id = next_thread_id + 1
   table.insert(threads, thread)
end

-- Per-thread Lua state ----------------------------------------------------------

local function percent_encode(s)
   return (string.gsub(s, "[^%w%-%._~]", function(c)
      return string.format("%%%02X", string.byte(c))
   end))
end

local function form_body(fields)
   local parts = {}
   for _, kv in ipairs(fields) do
      parts[#parts + 1] = kv[1] .. "=" .. percent_encode(kv[2])
   end
   return table.concat(parts, "&")
end

-- Returns the codes of this thread's slice: every k-th non-empty line.
local function read_slice(path, index, count)
   local file = assert(io.open(path, "r"), "cannot open codes file " .. path)
   local slice = {}
   local n = 0
   for line in file:lines() do
      line = string.gsub(line, "%s+$", "")
      if line ~= "" then
         if n % count == index then
            slice[#slice + 1] = line
         end
         n = n + 1
      end
   end
   file:close()
   return slice
end

function init(args)
   local codes_file, client_id, client_secret, redirect_uri, thread_count, grant =
      args[1], args[2], args[3], args[4], tonumber(args[5]), args[6] or "authorization_code"
   assert(codes_file and client_id and client_secret and redirect_uri and thread_count,
          "usage: -- CODES_FILE CLIENT_ID CLIENT_SECRET REDIRECT_URI THREAD_COUNT")
   assert(thread_id < thread_count, "more wrk threads than THREAD_COUNT")

   wrk.method = "POST"
   wrk.headers["Content-Type"] = "application/x-www-form-urlencoded"

   -- Pre-build every request so request() is a table lookup (wrk runs on the
   -- same 2 cores as the server; keep its per-request cost minimal).
   refresh_request = nil
   if grant == "refresh_token" then
      local token = read_slice(codes_file, 0, 1)[1]
      assert(token, "no refresh token in " .. codes_file)
      refresh_request = wrk.format("POST", nil, nil, form_body({
         { "client_id", client_id },
         { "client_secret", client_secret },
         { "grant_type", "refresh_token" },
         { "refresh_token", token },
      }))
   end
   local codes = refresh_request and {} or read_slice(codes_file, thread_id, thread_count)
   prepared = {}
   for i, code in ipairs(codes) do
      local body = form_body({
         { "client_id", client_id },
         { "client_secret", client_secret },
         { "code", code },
         { "grant_type", "authorization_code" },
         { "redirect_uri", redirect_uri },
      })
      prepared[i] = wrk.format("POST", nil, nil, body)
   end
   filler_request = wrk.format("GET", FILLER_PATH, {}, nil)

   codes_in_slice = #prepared
   next_index = 1
   exhausted = false
   sent = 0          -- token requests handed to wrk (each code once)
   filler_sent = 0   -- requests produced after the slice ran out
   ok = 0            -- 2xx responses
   non_2xx = 0       -- every other response to a token request
   filler_seen = 0   -- 404 answers to filler requests
   sample_body = nil -- first non-2xx body (truncated)
end

function request()
   if refresh_request ~= nil then
      sent = sent + 1
      return refresh_request
   end
   local req = prepared[next_index]
   if req ~= nil then
      prepared[next_index] = nil -- a code is never handed out twice
      next_index = next_index + 1
      sent = sent + 1
      return req
   end
   -- Stop on every filler request, not just the first: a stop issued before
   -- the thread's event loop starts (wrk calls request() once while
   -- verifying the script) would otherwise be lost.
   exhausted = true
   wrk.thread:stop()
   filler_sent = filler_sent + 1
   return filler_request
end

function response(status, headers, body)
   if status >= 200 and status <= 299 then
      ok = ok + 1
   elseif exhausted and status == 404 then
      filler_seen = filler_seen + 1
   else
      non_2xx = non_2xx + 1
      if sample_body == nil then
         sample_body = string.format("HTTP %d: %s", status, string.sub(body or "", 1, 400))
      end
   end
end

-- Main Lua state again ----------------------------------------------------------

local function emit(key, value)
   io.write(string.format("bench.%s=%s\n", key, tostring(value)))
end

function done(summary, latency, requests)
   local total = { ok = 0, non_2xx = 0, sent = 0, filler_sent = 0, codes = 0, exhausted_threads = 0 }
   local sample = nil
   for _, thread in ipairs(threads) do
      total.ok = total.ok + (thread:get("ok") or 0)
      total.non_2xx = total.non_2xx + (thread:get("non_2xx") or 0)
      total.sent = total.sent + (thread:get("sent") or 0)
      total.filler_sent = total.filler_sent + (thread:get("filler_sent") or 0)
      total.codes = total.codes + (thread:get("codes_in_slice") or 0)
      if thread:get("exhausted") then
         total.exhausted_threads = total.exhausted_threads + 1
      end
      sample = sample or thread:get("sample_body")
   end

   local seconds = summary.duration / 1e6
   emit("duration_s", string.format("%.3f", seconds))
   emit("ok_2xx", total.ok)
   emit("ok_2xx_per_sec", string.format("%.1f", total.ok / seconds))
   emit("non_2xx", total.non_2xx)
   emit("p50_ms", string.format("%.2f", latency:percentile(50.0) / 1000))
   emit("p99_ms", string.format("%.2f", latency:percentile(99.0) / 1000))
   emit("codes_available", total.codes)
   emit("codes_sent", total.sent)
   emit("exhausted_threads", total.exhausted_threads)
   emit("filler_requests", total.filler_sent)
   local e = summary.errors
   emit("socket_errors", e.connect + e.read + e.write + e.timeout)
   if sample ~= nil then
      -- one line: the shell prints it verbatim
      emit("sample_body", (string.gsub(sample, "[\r\n]+", " ")))
   end
end
