"""schemathesis hooks for `make contract`: generated queries keep the rules OpenAPI 3.0 cannot state."""

import schemathesis

from schemas.query import OptionalCorridorQuery, OptionalCurrencyPairQuery

# `from` needs `to` and the other way round; `amount`, `payout` and `sort` need `corridor`: the
# document says so in words, and only these cases are left out (the API answers them 400, tested
# in tests/test_group_b_http.py and tests/test_query_parsing.py)
_NEEDED = {
    "/api/poc/corridors": OptionalCurrencyPairQuery.required_if_any,
    "/api/poc/providers": OptionalCorridorQuery.required_if_any,
}


@schemathesis.hook
def filter_case(ctx, case):
    """Keep a case unless its query gives some parameters without those they need (every phase)."""
    needed, query = _NEEDED.get(case.operation.path), case.query
    return not needed or not query or all(name in query for name in needed)
