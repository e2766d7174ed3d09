-- A client without a key asking long daily history series, each URL new: a start in the first years of
-- the history, an end in the last ones (tests/test_rate_limits_gunicorn.py).
math.randomseed(os.time())
request = function()
  local start = string.format("%04d-%02d-%02d", 1999 + math.random(0, 3), math.random(1, 12), math.random(1, 28))
  local finish = string.format("%04d-%02d-%02d", 2022 + math.random(0, 4), math.random(1, 12), math.random(1, 28))
  return wrk.format("GET", "/api/poc/history?from=USD&to=JPY&start=" .. start .. "&end=" .. finish)
end
