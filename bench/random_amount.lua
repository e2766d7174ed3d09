-- wrk script: the URL's `amount=*` becomes a fresh random amount on every request
math.randomseed(os.time())
local path = wrk.path
request = function()
  local amount = string.format("%d.%02d", math.random(1, 999999), math.random(0, 99))
  return wrk.format("GET", (path:gsub("amount=%*", "amount=" .. amount)))
end
