"""The per-request fast paths give exactly what the schemas give: one-off quote bodies, query parsing
and RawJSON splicing."""

import hashlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from marshmallow import Schema, ValidationError
from werkzeug.datastructures import MultiDict

from corridor.encoding import RawJSON, json_bytes, json_text
from corridor.errors import ApiError
from corridor.params import QueryParser
from corridor.pricing import requote
from expected import active, key, shipped_seed
from schemas.api import RANKED_PRICED, RankedProviderSchema
from schemas.poc import ProvidersResponse
from schemas.query import ALL_QUERIES, CorridorQuery
from schemas.quotes import QuoteEntries

KEYS = [key(c) for c in active(shipped_seed())]
PAYOUTS = [None, "bank_deposit", "cash_pickup", "mobile_wallet", "home_delivery", "card"]
# amounts as the API takes them: cents up to 1e9, the edges and a tie-prone value among them
amounts = st.one_of(st.integers(1, 100_000_000_000).map(lambda cents: cents / 100),
                    st.sampled_from([0.01, 1e9, 200.0, 1234.5, 333.35]))
quote_options = st.tuples(st.sampled_from(KEYS), amounts, st.sampled_from(PAYOUTS), st.sampled_from(["cost", "speed", "score"]))
SETTINGS = settings(max_examples=300, deadline=None, derandomize=True)


@pytest.fixture(scope="module")
def figures(app):
    return app.extensions["corridor"]["catalog"].by_key


@given(options=quote_options)
@SETTINGS
def test_group_a_one_off_text_is_the_schema_dump(figures, options):
    corridor, amount, payout, sort = options
    quotes = requote(figures[corridor], amount, payout, sort).quotes
    fast = QuoteEntries(RankedProviderSchema, RANKED_PRICED)
    assert json_bytes(fast.encode(quotes)) == json_bytes(RankedProviderSchema(many=True).dump(quotes))


@given(options=quote_options)
@SETTINGS
def test_group_b_one_off_text_is_the_schema_dump(figures, options):
    corridor, amount, payout, sort = options
    quoted = requote(figures[corridor], amount, payout, sort)
    whole = ProvidersResponse()
    fast = {**ProvidersResponse(exclude=("providers",)).dump(quoted), "providers": whole.fields["providers"].entries.encode(quoted.quotes)}
    assert json_bytes(fast) == json_bytes(whole.dump(quoted))


@pytest.mark.parametrize("url", [
    "/api/providers?corridor=usd_mxn&amount=1234.56&payout=cash_pickup",
    "/api/providers?corridor=GBP_INR&amount=0.01&sort=speed",
    "/api/poc/providers?corridor=USD_MXN&amount=999999999.99&sort=score",
    "/api/poc/providers?corridor=USD_MXN&amount=50&payout=home_delivery",
])
def test_one_off_responses_carry_the_etag_of_their_bytes(client, auth, url):
    response = client.get(url, headers=auth)
    assert response.status_code == 200
    assert response.headers["ETag"] == f'"{hashlib.sha256(response.data).hexdigest()[:32]}"'
    again = client.get(url, headers={**auth, "If-None-Match": response.headers["ETag"]})
    assert (again.status_code, again.data) == (304, b"")


VALID_QUERIES = [
    {"corridor": "usd_mxn"},
    {"corridor": "USD_MXN", "amount": "1000", "payout": "cash_pickup", "sort": "speed"},
    {"corridor": "GBP_INR", "amount": "0.01"},
    {"from": "usd", "to": "Eur"},
    {},
]


@pytest.mark.parametrize("schema", ALL_QUERIES, ids=lambda s: s.__name__)
@pytest.mark.parametrize("args", VALID_QUERIES, ids=lambda a: "&".join(a) or "empty")
def test_the_query_parser_loads_what_schema_load_loads(schema, args):
    instance = schema()
    known = {k: v for k, v in args.items() if k in QueryParser(instance).fields}
    try:
        expected = instance.load(known)
    except ValidationError:
        with pytest.raises(ApiError):
            QueryParser(instance)(MultiDict(known))
        return
    assert QueryParser(instance)(MultiDict(known)) == expected


@pytest.mark.parametrize("schema", ALL_QUERIES, ids=lambda s: s.__name__)
def test_query_schemas_declare_fields_only(schema):
    # the parser deserialises field by field: a schema-level hook or validator would be skipped
    assert not any(schema._hooks.values()), f"{schema.__name__} has hooks; QueryParser would skip them"
    assert issubclass(schema, Schema)


@pytest.mark.parametrize("args, code, detail", [
    ({"corridor": "USD_MXN", "amount": "1e3"}, "invalid_parameter", "Query parameter 'amount' must be a plain decimal"),
    ({"corridor": "USD_MXN", "payout": "pigeon"}, "invalid_parameter", "Query parameter 'payout' must be one of"),
    ({"corridor": "USD_MXN", "sort": ""}, "missing_parameter", "Query parameter 'sort' needs a value"),
    ({"amount": "10"}, "missing_parameter", "Query parameter 'corridor' needs a value"),
])
def test_the_query_parser_answers_the_first_failure(args, code, detail):
    with pytest.raises(ApiError) as caught:
        QueryParser(CorridorQuery())(MultiDict(args))
    assert (caught.value.status, caught.value.code) == (400, code)
    assert caught.value.detail.startswith(detail)


@pytest.mark.parametrize("payload, text", [
    (RawJSON("[1,2]"), "[1,2]"),
    ({"ok": True, "providers": RawJSON('[{"a":"→"}]')}, '{"ok":true,"providers":[{"a":"→"}]}'),
    ({"a": RawJSON("1"), "b": "\x00", "c": RawJSON("[]")}, '{"a":1,"b":"\\u0000","c":[]}'),
    ([1.5, {"x": None}], '[1.5,{"x":null}]'),
])
def test_raw_json_is_spliced_as_it_is(payload, text):
    assert json_text(payload) == text


def test_raw_json_deeper_than_a_top_level_value_is_refused():
    with pytest.raises(TypeError):
        json_text({"a": [RawJSON("1")]})

