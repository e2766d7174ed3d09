"""Dumping ranked quotes fast: the offer's fields once, the priced fields on every call.

An entry's offer fields (provider, rate, fees, settlement, payout methods, score) depend only on
the offer and its corridor's mid-market rate; rank and the amount-dependent figures change with
each request. Both parts come from the same entry schema, so the result is what
`schema.dump(quotes, many=True)` gives, key order included. `encode` goes one step further for
one-off quotes: each offer's entry is JSON text once, with holes the priced fields fill.
"""

from __future__ import annotations

import math
from operator import attrgetter
from typing import Any, Callable, Iterable

from marshmallow import Schema, fields

from corridor.encoding import RawJSON, json_text

_LIMIT = 10_000  # distinct (offer, rate) pairs remembered; a worker's data has about a hundred
_TEXTS_LIMIT = 4096  # remembered texts per priced field; values that never repeat just cycle through


def _number_text(value: Any) -> str:
    # what the JSON encoder writes for an int or a finite float (their __repr__); anything else goes to it
    kind = type(value)
    if kind is int or (kind is float and math.isfinite(value)):
        return kind.__repr__(value)
    return json_text(value)


class QuoteEntries:
    """Dumps quotes with `schema`, re-dumping only the `priced` fields per call."""

    def __init__(self, schema: type[Schema], priced: tuple[str, ...]) -> None:
        self.schema = schema()
        self._priced = schema(only=priced, many=True)
        self._offer_parts: dict[tuple, dict[str, Any]] = {}
        self._templates: dict[tuple, tuple[str, tuple]] = {}
        # output key → (field name, field, value getter) for each priced field
        self._holes: dict[str, tuple[str, fields.Field, Callable]] = {
            field.data_key or name: (name, field, attrgetter(field.attribute or name))
            for name, field in self.schema.dump_fields.items() if name in priced
        }
        self._texts: dict[str, dict[tuple, str]] = {name: {} for name in priced}

    def dump(self, quotes: Iterable[Any]) -> list[dict[str, Any]]:
        """One entry per quote, in order."""
        quotes = list(quotes)
        entries = []
        for quote, priced in zip(quotes, self._priced.dump(quotes)):
            entries.append({**self._offer_part(quote), **priced})  # priced values replace theirs, in place
        return entries

    def encode(self, quotes: Iterable[Any]) -> RawJSON:
        """The JSON text of `dump(quotes)`: offer parts from their templates, priced fields formatted
        by their own schema fields (`_serialize`, the hook each field class defines)."""
        entries = []
        for quote in quotes:
            first, holes = self._template(quote)
            chunks = [first]
            for name, field, value_of, static in holes:
                value = value_of(quote)
                # a priced field's text depends on its value alone: ranks, the amount sent and flat
                # fees repeat across entries and requests. Keyed by type too (5 == 5.0, texts
                # differ); zeros bypass the memo (0.0 == -0.0)
                known, key = self._texts[name], (type(value), value)
                text = known.get(key) if value else None
                if text is None:
                    if len(known) >= _TEXTS_LIMIT:
                        known.clear()
                    text = known[key] = _number_text(field._serialize(value, name, quote))
                chunks += (text, static)
            entries.append("".join(chunks))
        return RawJSON(f"[{','.join(entries)}]")

    def _offer_part(self, quote: Any) -> dict[str, Any]:
        key = (quote.offer, quote.rate)
        whole = self._offer_parts.get(key)
        if whole is None:
            if len(self._offer_parts) >= _LIMIT:
                self._offer_parts.clear()
            whole = self._offer_parts[key] = self.schema.dump(quote)
        return whole

    def _template(self, quote: Any) -> tuple[str, tuple]:
        """The entry's JSON split at its priced values: the text before the first, then for each
        priced field (name, field, value getter, the text after it up to the next), in key order."""
        key = (quote.offer, quote.rate)
        template = self._templates.get(key)
        if template is None:
            texts, holes, current = [], [], "{"
            for position, (output_key, value) in enumerate(self._offer_part(quote).items()):
                current += ("," if position else "") + json_text(output_key) + ":"
                if output_key in self._holes:
                    texts.append(current)
                    holes.append(self._holes[output_key])
                    current = ""
                else:
                    current += json_text(value)
            texts.append(current + "}")
            if len(self._templates) >= _LIMIT:
                self._templates.clear()
            template = self._templates[key] = (texts[0], tuple((*hole, text) for hole, text in zip(holes, texts[1:])))
        return template


class QuoteList(fields.List):
    """A list of quote entries (OpenAPI and the guide see `List(Nested(schema))`), dumped fast."""

    def __init__(self, schema: type[Schema], priced: tuple[str, ...], **kwargs: Any) -> None:
        super().__init__(fields.Nested(schema), **kwargs)
        self.entries = QuoteEntries(schema, priced)

    def _serialize(self, value: Any, attr: Any, obj: Any, **kwargs: Any) -> list | None:
        return None if value is None else self.entries.dump(value)
