"""Dumping ranked quotes fast: the offer's fields once, the priced fields on every call.

An entry's offer fields (provider, rate, fees, settlement, payout methods, score) depend only on
the offer and its corridor's mid-market rate; rank and the amount-dependent figures change with
each request. Both parts come from the same entry schema, so the result is what
`schema.dump(quotes, many=True)` gives, key order included.
"""

from __future__ import annotations

from typing import Any, Iterable

from marshmallow import Schema, fields

_LIMIT = 10_000  # distinct (offer, rate) pairs remembered; a worker's data has about a hundred


class QuoteEntries:
    """Dumps quotes with `schema`, re-dumping only the `priced` fields per call."""

    def __init__(self, schema: type[Schema], priced: tuple[str, ...]) -> None:
        self.schema = schema()
        self._priced = schema(only=priced, many=True)
        self._offer_parts: dict[tuple, dict[str, Any]] = {}

    def dump(self, quotes: Iterable[Any]) -> list[dict[str, Any]]:
        """One entry per quote, in order."""
        quotes = list(quotes)
        entries = []
        for quote, priced in zip(quotes, self._priced.dump(quotes)):
            key = (quote.offer, quote.rate)
            whole = self._offer_parts.get(key)
            if whole is None:
                if len(self._offer_parts) >= _LIMIT:
                    self._offer_parts.clear()
                whole = self._offer_parts[key] = self.schema.dump(quote)
            entries.append({**whole, **priced})  # priced values replace theirs, in place
        return entries


class QuoteList(fields.List):
    """A list of quote entries (OpenAPI and the guide see `List(Nested(schema))`), dumped fast."""

    def __init__(self, schema: type[Schema], priced: tuple[str, ...], **kwargs: Any) -> None:
        super().__init__(fields.Nested(schema), **kwargs)
        self._entries = QuoteEntries(schema, priced)

    def _serialize(self, value: Any, attr: Any, obj: Any, **kwargs: Any) -> list | None:
        return None if value is None else self._entries.dump(value)
