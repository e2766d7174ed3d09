"""Query parameters load through the query schemas; the first failure answers, in a fixed order."""

import pytest

from corridor.api.queries import QueryParser
from corridor.errors import ApiError, quoted
from schemas.query import CorridorQuery, OptionalCorridorQuery, OptionalCurrencyPairQuery


def load(app, schema, args):
    """`args` (pairs, in order) loaded by `schema` as the API's parser loads a request's query."""
    with app.test_request_context(query_string=args):
        return QueryParser().parse(schema, location="query")


@pytest.mark.parametrize(
    "schema, args, loaded",
    [
        (CorridorQuery(), {"corridor": "usd_mxn"}, {"corridor": "USD_MXN", "sort": "cost"}),
        (
            CorridorQuery(),
            {"corridor": "Usd_Mxn", "amount": "250.50", "payout": "cash_pickup", "sort": "speed"},
            {"corridor": "USD_MXN", "amount": 250.5, "payout": "cash_pickup", "sort": "speed"},
        ),
        (OptionalCorridorQuery(), {}, {"sort": "cost"}),
        (OptionalCurrencyPairQuery(), {"from": "usd", "to": "Eur"}, {"from_currency": "USD", "to_currency": "EUR"}),
        (OptionalCurrencyPairQuery(), {}, {}),
    ],
)
def test_parameters_load_as_normalised_values(app, schema, args, loaded):
    assert load(app, schema, args) == loaded


@pytest.mark.parametrize(
    "args, code, detail",
    [
        (
            [("corridor", "USD_MXN"), ("amount", "1e3")],
            "invalid_parameter",
            "Query parameter 'amount' must be a plain decimal",
        ),
        (
            [("corridor", "USD_MXN"), ("payout", "pigeon")],
            "invalid_parameter",
            "Query parameter 'payout' must be one of",
        ),
        ([("corridor", "USD_MXN"), ("sort", "")], "missing_parameter", "Query parameter 'sort' needs a value"),
        ([("amount", "10")], "missing_parameter", "Query parameter 'corridor' needs a value"),
        (
            [("sort", "fast"), ("amount", "x"), ("corridor", "US")],
            "invalid_parameter",
            "Query parameter 'corridor' must be",
        ),
        (
            [("sort", "fast"), ("amount", "x"), ("corridor", "USD_MXN")],
            "invalid_parameter",
            "Query parameter 'amount' must be",
        ),
        ([("amount", "x"), ("bogus", "1")], "invalid_parameter", "Unknown query parameter 'bogus'"),
        (
            [("corridor", "USD_MXN"), ("corridor", "USD_MXN")],
            "invalid_parameter",
            "Query parameter 'corridor' is given more than once",
        ),
    ],
)
def test_the_first_failure_answers(app, args, code, detail):
    with pytest.raises(ApiError) as caught:
        load(app, CorridorQuery(), args)
    assert (caught.value.status, caught.value.code) == (400, code)
    assert caught.value.detail.startswith(detail)


@pytest.mark.parametrize("name, text", [("api_key", "'api_key'"), ("a" * 41, f"'{'a' * 40}…'"), ("x\ny\x00", "'x?y?'")])
def test_names_quoted_back_are_printable_and_short(name, text):
    assert quoted(name) == text
