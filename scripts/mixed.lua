-- wrk script: every request takes the next URL of the list, all endpoints of both groups
local urls = {
  "/api/corridors", "/api/providers?corridor=USD_MXN", "/api/providers?corridor=gbp_inr",
  "/api/midrate?from=USD&to=EUR", "/api/midrate?from=jpy&to=PHP",
  "/api/poc/corridors", "/api/poc/corridors?from=AED&to=INR", "/api/poc/corridors/3",
  "/api/poc/providers?corridor=USD_PHP", "/api/poc/providers", "/api/poc/full", "/api/poc/guide",
  "/api/poc/health", "/api/openapi.json",
}
local i = 0
request = function()
  i = i % #urls + 1
  return wrk.format("GET", urls[i])
end
