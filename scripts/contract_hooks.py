"""schemathesis hooks for `make contract`: generated queries keep the rules OpenAPI 3.0 cannot state, and
no case sends If-Match, whose value would have to be an ETag the case cannot know (412 otherwise)."""

from urllib.parse import urlencode

import schemathesis
from marshmallow import ValidationError
from schemathesis.specs.openapi.checks import status_code_conformance

from schemas.fields import Cursor
from schemas.query import PAGE_PARAMETERS, OptionalCorridorQuery, OptionalCurrencyPairQuery

# `from` needs `to` and the other way round; `amount`, `payout` and `sort` need `corridor`; history
# takes `date` or a range, and a range in order (so do the survey's costs); a page is of a whole list,
# and its cursor one the service gave: the document says so in words, and only these cases are left
# out (the API answers them 400, tested in tests/test_group_b_http.py, tests/test_query_parsing.py,
# tests/test_history.py, tests/test_costs.py and tests/test_paging.py)
_HISTORY = {"/api/history", "/api/poc/history", "/api/history.csv", "/api/poc/history.csv"}
_RANGED = _HISTORY | {f"/api{group}/costs{kind}" for group in ("", "/poc") for kind in ("", ".csv", "/global")}
_ONE_CORRIDOR = {"from", "to", "corridor"}  # what a page cannot be given with
_NEEDED = {
    "/api/poc/corridors": OptionalCurrencyPairQuery.required_if_any,
    "/api/poc/providers": OptionalCorridorQuery.required_if_any,
}


# gunicorn refuses a longer request line (414) or header (431) before the app sees it: the document says so in
# its description, not per operation, so such cases are the server's, not the contract's
_REQUEST_LINE, _HEADER = 2048 - 64, 8190 - 64  # room for the method, the protocol and a header's name


@schemathesis.check
def documented_status_or_server_limit(ctx, response, case):
    """schemathesis's status_code_conformance (which `make contract` excludes), but for gunicorn's 414 and 431: a
    schema-breaking query can still make a request line longer than the filters below could tell from the case."""
    if response.status_code in (414, 431):
        return None
    return status_code_conformance(ctx, response, case)


def _over_server_limits(case):
    query = urlencode(case.query or {}, doseq=True)
    headers = case.headers or {}
    return len(case.formatted_path) + len(query) > _REQUEST_LINE or any(len(str(v)) > _HEADER for v in headers.values())


@schemathesis.hook
def filter_query(ctx, query):
    """A query too long for gunicorn's request line goes nowhere (every phase and mode: the fuzzing phase's
    schema-breaking cases are drawn here, before `filter_case` sees them)."""
    return len(urlencode(query or {}, doseq=True)) <= _REQUEST_LINE - 64  # room for the longest path


@schemathesis.hook
def filter_case(ctx, case):
    """Keep a case unless its query gives some parameters without those they need, or it is too long for the
    server (every phase)."""
    needed, query = _NEEDED.get(case.operation.path), case.query or {}
    if "If-Match" in (case.headers or {}):  # it must name the resource's current ETag, which no case can know
        return False
    if _over_server_limits(case):
        return False
    if case.operation.path in _RANGED:
        return (
            not ("date" in query and ("start" in query or "end" in query))
            and str(query.get("start", "")).upper() <= str(query.get("end", "9999")).upper()
        )
    if any(name in query for name in PAGE_PARAMETERS) and (
        _ONE_CORRIDOR & set(query) or ("cursor" in query and not _service_cursor(query["cursor"]))
    ):
        return False
    if "amount" in query and "receive_amount" in query:  # what is sent or what is received, not both
        return False
    return not needed or not query or all(name in query for name in needed)


def _service_cursor(value: object) -> bool:
    try:
        Cursor().deserialize(str(value))
    except ValidationError:
        return False
    return True
