"""The URLs the benchmark drives: every endpoint of both groups, plus one-off amount quotes."""

# `amount=*`: a different random amount on every request (bench/random_amount.lua), so nothing is reused
GROUP_A = [
    "/api/corridors",
    "/api/providers?corridor=USD_MXN",
    "/api/midrate?from=USD&to=EUR",
    "/api/currencies",
    "/api/providers?corridor=USD_MXN&amount=*&payout=cash_pickup",
    "/api/history?from=USD&to=MXN",
    "/api/costs?corridor=KEN-TZA",
    "/api/costs?corridor=USA-MEX",
    "/api/costs/global",
    "/api/costs/corridors",
]
GROUP_B = [
    "/api/poc/corridors",
    "/api/poc/corridors?from=USD&to=MXN",
    "/api/poc/corridors/1",
    "/api/poc/providers?corridor=USD_MXN",
    "/api/poc/providers",
    "/api/poc/full",
    "/api/poc/guide",
    "/api/poc/currencies",
    "/api/poc/benchmark",
    "/api/poc/health",
    "/api/poc/providers?corridor=USD_MXN&amount=*",
    "/api/poc/history?from=USD&to=JPY&start=1999-01-01&end=2026-12-31",
    "/api/poc/costs?corridor=TZA-UGA",
]
URLS = GROUP_A + GROUP_B
ONE_OFFS = [url for url in URLS if "amount=*" in url]
UNCACHED = ["/api/poc/health", *ONE_OFFS]  # built per request: the rest are repeated, served from the response cache


def concrete(url: str) -> str:
    """`url` as one request sends it: `amount=*` becomes `amount=1000`."""
    return url.replace("*", "1000")
