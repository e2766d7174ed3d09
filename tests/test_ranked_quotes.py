"""Group B's ranked providers keep each offer's own fields between quotes, and write exactly what the entry schema
writes: the same keys in the same order, the same figures."""

import json

import pytest
from marshmallow import Schema, fields

import schemas.fields
from schemas.fields import RankedQuotes
from schemas.poc import PER_OFFER, ProviderEntrySchema


class Plain(Schema):
    providers = fields.List(fields.Nested(ProviderEntrySchema), attribute="quotes")


class Kept(Schema):
    providers = RankedQuotes(ProviderEntrySchema, PER_OFFER, attribute="quotes")


@pytest.fixture
def catalog(app):
    return app.extensions["corridor"].data.catalog


@pytest.mark.parametrize("query", [
    {"corridor": "USD_MXN"},
    {"corridor": "USD_MXN", "amount": 1234.56},
    {"corridor": "USD_MXN", "amount": 0.01, "sort": "speed"},
    {"corridor": "USD_MXN", "receive_amount": 5000.0},
    {"corridor": "GBP_INR", "amount": 77.0, "payout": "bank_deposit"},
])
def test_each_entry_is_what_the_entry_schema_writes_key_for_key_in_order(catalog, query):
    kept = Kept()
    for _ in range(2):  # made, then from the kept offer parts
        quotes = catalog.quotes(**query)
        assert json.dumps(kept.dump(quotes)) == json.dumps(Plain().dump(quotes))


def test_every_corridor_at_several_amounts_writes_the_same_figures(catalog):
    kept = Kept()
    for figures in catalog.corridors:
        for amount in (None, 1.0, 200.0, 999_999.99):
            quotes = catalog.quotes(figures.corridor.key, amount=amount)
            assert json.dumps(kept.dump(quotes)) == json.dumps(Plain().dump(quotes))


def test_the_offer_parts_kept_are_bounded(catalog, monkeypatch):
    monkeypatch.setattr(schemas.fields, "OFFER_PARTS_KEPT", 5)
    kept = Kept()
    field = kept.fields["providers"]
    field._kept.clear()  # a field's copies share what it keeps: the earlier tests' offers are there
    for figures in catalog.corridors:
        kept.dump(figures)
        assert len(field._kept) <= 5
    assert field._kept  # the latest offers are kept


def test_a_field_not_in_the_entry_is_refused():
    with pytest.raises(ValueError, match="nowhere"):
        RankedQuotes(ProviderEntrySchema, ("provider", "nowhere"))
