"""Dumping ranked quotes fast: the offer's fields once, the priced fields on every call.

An entry's offer fields (provider, rate, fees, settlement, payout methods, score) depend only on
the offer and its corridor's mid-market rate; rank and the amount-dependent figures change with
each request. Both parts come from the same entry schema, so the result is what
`schema.dump(quotes, many=True)` gives, key order included. `encode` goes one step further for
one-off quotes: each offer's entry is JSON text once, with holes the priced fields fill.
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any, Callable, Iterable

from marshmallow import Schema, fields

from corridor.encoding import RawJSON, json_text

_LIMIT = 10_000  # distinct (offer, rate) pairs remembered; a worker's data has about a hundred
_TEXTS_LIMIT = 4096  # remembered texts per priced field; values that never repeat just cycle through


def _texts_writer(field: fields.Field) -> Callable[[list], list[str]]:
    """The field's `json_texts` where it has one (Rounded, PercentText), else each value's dump as
    JSON text, remembered by value: ranks repeat across entries and requests."""
    direct = getattr(field, "json_texts", None)
    if direct is not None:
        return direct
    known: dict[tuple, str] = {}

    def remembered(values: list) -> list[str]:
        texts = []
        for value in values:
            # keyed by type too (5 == 5.0, texts differ); zeros bypass the memo (0.0 == -0.0)
            key = (type(value), value)
            text = known.get(key) if value else None
            if text is None:
                if len(known) >= _TEXTS_LIMIT:
                    known.clear()
                text = known[key] = json_text(field._serialize(value, None, None))
            texts.append(text)
        return texts

    return remembered


class QuoteEntries:
    """Dumps quotes with `schema`, re-dumping only the `priced` fields per call."""

    def __init__(self, schema: type[Schema], priced: tuple[str, ...]) -> None:
        self.schema = schema()
        self._priced = schema(only=priced, many=True)
        # both keyed by (id(offer), rate): an offer's own hash walks all its fields. The value keeps
        # the offer, so no other object can take its id while the entry lives
        self._offer_parts: dict[tuple, tuple[Any, dict[str, Any]]] = {}
        self._templates: dict[tuple, tuple[Any, str]] = {}
        # output key → (value getter, texts writer) for each priced field, in schema order
        self._columns: dict[str, tuple[Callable, Callable]] = {
            field.data_key or name: (attrgetter(field.attribute or name), _texts_writer(field))
            for name, field in self.schema.dump_fields.items() if name in priced
        }

    def dump(self, quotes: Iterable[Any]) -> list[dict[str, Any]]:
        """One entry per quote, in order."""
        quotes = list(quotes)
        entries = []
        for quote, priced in zip(quotes, self._priced.dump(quotes)):
            entries.append({**self._offer_part(quote), **priced})  # priced values replace theirs, in place
        return entries

    def encode(self, quotes: Iterable[Any]) -> RawJSON:
        """The JSON text of `dump(quotes)`: each entry is its offer's template, a %-format string
        with a hole per priced field, filled with the values written a column at a time by their
        own schema fields."""
        quotes = tuple(quotes)
        known = self._templates
        templates = [(known.get((id(quote.offer), quote.rate)) or self._template(quote))[1] for quote in quotes]
        columns = [write([value_of(quote) for quote in quotes]) for value_of, write in self._columns.values()]
        return RawJSON(f"[{','.join([template % texts for template, texts in zip(templates, zip(*columns))])}]")

    def _offer_part(self, quote: Any) -> dict[str, Any]:
        key = (id(quote.offer), quote.rate)
        kept = self._offer_parts.get(key)
        if kept is None:
            if len(self._offer_parts) >= _LIMIT:
                self._offer_parts.clear()
            kept = self._offer_parts[key] = (quote.offer, self.schema.dump(quote))
        return kept[1]

    def _template(self, quote: Any) -> tuple[Any, str]:
        """(the offer, the entry's JSON as a %-format string with `%s` for each priced value)."""
        key = (id(quote.offer), quote.rate)
        kept = self._templates.get(key)
        if kept is None:
            parts = []
            for output_key, value in self._offer_part(quote).items():
                text = "%s" if output_key in self._columns else json_text(value).replace("%", "%%")
                parts.append(f"{json_text(output_key).replace('%', '%%')}:{text}")
            if len(self._templates) >= _LIMIT:
                self._templates.clear()
            kept = self._templates[key] = (quote.offer, f"{{{','.join(parts)}}}")
        return kept


class QuoteList(fields.List):
    """A list of quote entries (OpenAPI and the guide see `List(Nested(schema))`), dumped fast."""

    def __init__(self, schema: type[Schema], priced: tuple[str, ...], **kwargs: Any) -> None:
        super().__init__(fields.Nested(schema), **kwargs)
        self.entries = QuoteEntries(schema, priced)

    def _serialize(self, value: Any, attr: Any, obj: Any, **kwargs: Any) -> list | None:
        return None if value is None else self.entries.dump(value)
