"""A corridor's provider entries at any amount: what its offers fix dumped once, the rest per request."""

# Most of an entry (name, rate, fees, settlement, payout methods, score) comes from the offer and
# the corridor's mid-market rate; an amount or an order changes only the quote's figures. Both
# parts are dumped by the entry schema itself (`exclude`, `only`), so an entry is exactly what
# `schema(many=True).dump(quotes)` gives, but a quote at a new amount dumps only its figures.

from __future__ import annotations

from typing import Any

from marshmallow import Schema

from corridor.domain.catalog import Catalog
from corridor.domain.pricing import QUOTE_FIGURES, CorridorFigures, Quote
from corridor.web.memo import SharedLRU

FIXED_MEMO = 512  # corridors whose fixed parts a worker keeps, per entry schema


def at_an_amount(query: dict[str, Any]) -> bool:
    """A quote at an amount of the client's own: a one-off body, never kept."""
    return "amount" in query or "receive_amount" in query


def quotes_for(catalog: Catalog, query: dict[str, Any]) -> CorridorFigures:
    """The corridor's offers priced and ordered as a loaded providers query asks."""
    return catalog.quotes(query["corridor"], query.get("amount"), query.get("payout"), query["sort"],
                          query.get("receive_amount"))


class QuoteEntries:
    """Dumps a corridor's quotes with an entry schema, its fixed parts kept per corridor."""

    def __init__(self, schema: type[Schema]) -> None:
        priced = [name for name, field in schema().fields.items() if (field.attribute or name) in QUOTE_FIGURES]
        self._keys = [field.data_key or name for name, field in schema().dump_fields.items()]
        self._fixed = schema(exclude=priced, many=True)
        self._priced = schema(only=priced, many=True)
        self._parts: SharedLRU[dict[str, dict[str, Any]]] = SharedLRU(FIXED_MEMO)
        self._catalog: Catalog | None = None

    def dump(self, catalog: Catalog, figures: CorridorFigures) -> list[dict[str, Any]]:
        """One entry per quote of `figures`, in order."""
        parts = self._fixed_parts(catalog, figures.corridor.key)
        entries = []
        for quote, priced in zip(figures.quotes, self._priced.dump(figures.quotes)):
            entry = parts[quote.offer.provider_id].copy()
            entry.update(priced)  # the priced keys are in place already: the schema's order stays
            entries.append(entry)
        return entries

    def _fixed_parts(self, catalog: Catalog, key: str) -> dict[str, dict[str, Any]]:
        """Each offer's entry, the priced fields None, by provider id."""
        if catalog is not self._catalog:  # another data version: its parts differ
            self._parts.clear()
            self._catalog = catalog
        parts = self._parts.get(key)
        if parts is None:
            quotes: tuple[Quote, ...] = catalog.corridor(key).quotes
            parts = {
                quote.offer.provider_id: {name: fixed.get(name) for name in self._keys}
                for quote, fixed in zip(quotes, self._fixed.dump(quotes))
            }
            self._parts.put(key, parts)
        return parts
