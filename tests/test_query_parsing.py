"""Query parsing's fast paths give what Werkzeug and marshmallow give: the split of a plain query,
the parser against `schema.load`, and the pattern fields' loads against marshmallow's own."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from marshmallow import ValidationError, fields
from werkzeug.datastructures import MultiDict
from werkzeug.wrappers import Request

from corridor.errors import ApiError
from corridor.params import QueryParser, query_lists
from schemas.fields import Amount, CorridorKey, CurrencyCode
from schemas.query import ALL_QUERIES, CorridorQuery


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
            QueryParser(instance)(MultiDict(known).lists())
        return
    assert QueryParser(instance)(MultiDict(known).lists()) == expected


# query strings as anyone may send them: names and values from the API, separators doubled or
# missing, and what needs decoding (%-escapes, valid or not, +, non-ASCII)
query_strings = st.lists(
    st.sampled_from(["corridor", "amount", "payout", "sort", "from", "to", "USD_MXN", "12.50", "", "=", "&", "&&",
                     "%41", "%4", "%zz", "+", "%2B", "%26", "é", ";", "a=b=c", "~._-"]),
    max_size=12,
).map("".join)


@given(query=query_strings)
@settings(max_examples=1000, deadline=None, derandomize=True)
def test_query_lists_are_what_werkzeug_parses(query):
    raw = query.encode()
    werkzeug_lists = list(Request({"QUERY_STRING": raw.decode("latin-1")}).args.lists())
    assert list(query_lists(raw, lambda: Request({"QUERY_STRING": raw.decode("latin-1")}).args)) == werkzeug_lists


def test_only_a_query_with_nothing_to_decode_is_split_without_werkzeug():
    def never():
        raise AssertionError("went to Werkzeug")

    assert list(query_lists(b"corridor=usd_mxn&amount=1.5&&sort&corridor=x", never)) == [
        ("corridor", ["usd_mxn", "x"]), ("amount", ["1.5"]), ("sort", [""])]
    assert list(query_lists(b"amount=1%2C5", lambda: MultiDict([("amount", "1,5")]))) == [("amount", ["1,5"])]


@pytest.mark.parametrize("schema", ALL_QUERIES, ids=lambda s: s.__name__)
def test_query_schemas_declare_fields_only(schema):
    # the parser deserialises field by field: a schema-level hook or validator would be skipped
    assert not any(schema._hooks.values()), f"{schema.__name__} has hooks; QueryParser would skip them"


@pytest.mark.parametrize("args, code, detail", [
    ({"corridor": "USD_MXN", "amount": "1e3"}, "invalid_parameter", "Query parameter 'amount' must be a plain decimal"),
    ({"corridor": "USD_MXN", "payout": "pigeon"}, "invalid_parameter", "Query parameter 'payout' must be one of"),
    ({"corridor": "USD_MXN", "sort": ""}, "missing_parameter", "Query parameter 'sort' needs a value"),
    ({"amount": "10"}, "missing_parameter", "Query parameter 'corridor' needs a value"),
    ({"sort": "fast", "amount": "x", "corridor": "US"}, "invalid_parameter", "Query parameter 'corridor' must be"),
    ({"sort": "fast", "amount": "x", "corridor": "USD_MXN"}, "invalid_parameter", "Query parameter 'amount' must be"),
])
def test_the_query_parser_answers_the_first_failure(args, code, detail):
    with pytest.raises(ApiError) as caught:
        QueryParser(CorridorQuery())(MultiDict(args).lists())
    assert (caught.value.status, caught.value.code) == (400, code)
    assert caught.value.detail.startswith(detail)


PATTERN_FIELDS = [Amount(), CorridorKey(), CurrencyCode(), CorridorKey(post_load=[str.lower])]  # the last: its own processor


@given(text=st.one_of(st.from_regex(r"[0-9A-Za-z_.]{0,12}", fullmatch=True), st.sampled_from(
    ["0.01", "1000000000.00", "1000000000.01", "usd_mxn", "USD", "0", "01", "1e3", " 1", "１２"])), field=st.sampled_from(PATTERN_FIELDS))
@settings(max_examples=1000, deadline=None, derandomize=True)
def test_pattern_fields_load_as_marshmallow_loads(text, field):
    # the fast path of PatternString.deserialize against marshmallow's own, errors included
    try:
        expected = fields.Field.deserialize(field, text)
    except ValidationError as err:
        with pytest.raises(ValidationError) as caught:
            field.deserialize(text)
        assert caught.value.messages == err.messages
        return
    assert repr(field.deserialize(text)) == repr(expected)
