"""Ranked lists, in both groups, keep each offer's own fields between quotes, and write exactly what a plain dump of
the entry schema writes: the same keys in the same order, the same figures."""

import json
import sys

import pytest
from marshmallow import Schema, fields

import schemas.ranked
from corridor.state import current_service
from schemas.api import RankedProviderSchema
from schemas.poc import ProviderEntrySchema
from schemas.ranked import RankedEntrySchema

ENTRIES = [RankedProviderSchema, ProviderEntrySchema]


def plain(entry: type[RankedEntrySchema], quotes: list) -> list:
    """The same fields, dumped whole by marshmallow."""
    return Schema.dump(entry(many=True), quotes)


@pytest.fixture
def catalog(app):
    return current_service(app).data.catalog


@pytest.mark.parametrize("entry", ENTRIES)
@pytest.mark.parametrize(
    "query",
    [
        {"corridor": "USD_MXN"},
        {"corridor": "USD_MXN", "amount": 1234.56},
        {"corridor": "USD_MXN", "amount": 0.01, "sort": "speed"},
        {"corridor": "USD_MXN", "receive_amount": 5000.0},
        {"corridor": "GBP_INR", "amount": 77.0, "payout": "bank_deposit"},
    ],
)
def test_each_entry_is_what_a_plain_dump_writes_key_for_key_in_order(catalog, entry, query):
    kept = entry(many=True)
    for _ in range(2):  # made, then from the kept offer parts
        quotes = catalog.quotes(**query).quotes
        assert json.dumps(kept.dump(quotes)) == json.dumps(plain(entry, quotes))


@pytest.mark.parametrize("entry", ENTRIES)
def test_every_corridor_at_several_amounts_writes_the_same_figures(catalog, entry):
    kept = entry(many=True)
    for figures in catalog.corridors:
        for amount in (None, 1.0, 200.0, 999_999.99):
            quotes = catalog.quotes(figures.corridor.key, amount=amount).quotes
            assert json.dumps(kept.dump(quotes)) == json.dumps(plain(entry, quotes))


def test_one_entry_alone_is_dumped_whole(catalog):
    quote = catalog.quotes("USD_MXN").quotes[0]
    assert ProviderEntrySchema().dump(quote) == plain(ProviderEntrySchema, [quote])[0]


def test_the_offer_parts_kept_are_bounded(catalog, monkeypatch):
    monkeypatch.setattr(schemas.ranked, "OFFER_PARTS_KEPT", 5)
    kept = ProviderEntrySchema(many=True)
    for figures in catalog.corridors:
        kept.dump(figures.quotes)
        assert len(kept._kept) <= 5
    assert kept._kept  # the latest offers are kept


def test_a_field_not_in_the_entry_is_refused():
    with pytest.raises(ValueError, match="nowhere"):
        type("Wrong", (ProviderEntrySchema,), {"per_offer": ("provider", "nowhere")})()


def test_a_quote_field_read_through_another_object_than_the_offer_is_refused():
    with pytest.raises(ValueError, match="corridor_name"):
        type("Wrong", (ProviderEntrySchema,), {"corridor_name": fields.String(attribute="corridor.name")})()


def test_an_entry_schema_with_only_some_fields_dumps_them_whole(catalog):
    quotes = catalog.quotes("USD_MXN").quotes
    assert ProviderEntrySchema(many=True, only=("rank", "provider")).dump(quotes) == [
        {"rank": quote.rank, "provider": quote.offer.provider} for quote in quotes
    ]


@pytest.mark.parametrize("entry", ENTRIES)
def test_an_entry_takes_no_more_memory_than_a_plain_dump_of_it(catalog, entry):
    # a list of every corridor's providers holds tens of thousands of them while it is written
    quotes = catalog.quotes("USD_MXN", amount=321.0).quotes
    kept, whole = entry(many=True).dump(quotes), plain(entry, quotes)
    assert [sys.getsizeof(e) for e in kept] == [sys.getsizeof(e) for e in whole]
