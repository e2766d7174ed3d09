"""Dumping ranked quotes fast: the offer's fields once, the priced fields on every call.

An entry's offer fields (provider, rate, fees, settlement, payout methods, score) depend only on
the offer and its corridor's mid-market rate; rank and the amount-dependent figures change with
each request. Both parts come from the same entry schema, so the result is what
`schema.dump(quotes, many=True)` gives, key order included. `RankingWriter` goes one step further
for a ranking (`corridor.quoting`): the JSON text of its whole list, laid out once per (sheet,
order) with holes that only the figures of the amount fill.
"""

from __future__ import annotations

from operator import itemgetter
from typing import Any, Callable, Iterable, NamedTuple

from marshmallow import Schema, fields

from corridor.encoding import RawJSON, json_text
from corridor.quoting import Ranking

_LIMIT = 10_000  # offers, or (sheet, order) layouts, remembered; a worker's data has a few hundred of each
# the Quote figures that change with the amount, each written by its schema field's `json_writer`;
# `rank` is fixed by the order, and `fee_total` by the offer where no fee % applies
_FIGURES = ("true_cost_pct", "recipient_gets", "send_amount", "fee_total")


class Layout(NamedTuple):
    """A ranking's list as JSON text: `frame` holds the fixed text at even places, None at odd
    places; `pick` takes the figures' texts to those places."""

    frame: list[str | None]
    pick: Callable[[list[str]], tuple[str, ...]]
    fees: bool  # whether fee_total is written per request


def _picker(places: list[int]) -> Callable[[list[str]], tuple[str, ...]]:
    if len(places) == 1:
        return lambda texts: (texts[places[0]],)
    return itemgetter(*places) if places else lambda texts: ()


class QuoteEntries:
    """Dumps quotes with `schema`, re-dumping only the `priced` fields per call."""

    def __init__(self, schema: type[Schema], priced: tuple[str, ...]) -> None:
        self.schema = schema()
        self._priced = schema(only=priced, many=True)
        # keyed by (id(offer), rate): an offer's own hash walks all its fields. The value keeps
        # the offer, so no other object can take its id while the entry lives
        self._offer_parts: dict[tuple, tuple[Any, dict[str, Any]]] = {}

    def dump(self, quotes: Iterable[Any]) -> list[dict[str, Any]]:
        """One entry per quote, in order."""
        quotes = list(quotes)
        entries = []
        for quote, priced in zip(quotes, self._priced.dump(quotes)):
            entries.append({**self._offer_part(quote), **priced})  # priced values replace theirs, in place
        return entries

    def _offer_part(self, quote: Any) -> dict[str, Any]:
        key = (id(quote.offer), quote.rate)
        kept = self._offer_parts.get(key)
        if kept is None:
            if len(self._offer_parts) >= _LIMIT:
                self._offer_parts.clear()
            kept = self._offer_parts[key] = (quote.offer, self.schema.dump(quote))
        return kept[1]


class RankingWriter:
    """Writes a ranking's entries, dumped with `schema`, as JSON text: from a layout per (sheet,
    order), with the `priced` fields' figures written per call."""

    def __init__(self, schema: type[Schema], priced: tuple[str, ...],
                 around: Callable[[Ranking], tuple[str, str]] = lambda ranking: ("", "")) -> None:
        """`around` gives the JSON text `encode` writes before and after a ranking's list (an
        envelope that depends on the sheet and the count alone), laid out with it."""
        self.schema = schema()
        self._around = around
        self._layouts: dict[tuple, Layout] = {}  # by (sheet, order): a sheet hashes by identity
        figures = {field.attribute or name: (field.data_key or name, field)
                   for name, field in self.schema.dump_fields.items() if name in priced}
        self._keys = {key: attribute for attribute, (key, _) in figures.items()}  # output key → Quote figure
        # a cost in % takes far fewer values at two decimals than amounts do: its texts are remembered
        self._cost, self._gets, self._sent, self._fee = (
            figures[attribute][1].json_writer(remember=attribute == "true_cost_pct") for attribute in _FIGURES)

    def encode(self, ranking: Ranking) -> RawJSON:
        """The JSON text of the schema's dump of `ranking.quotes()`, within `around`'s: the layout
        of its sheet and order, with the figures written a column at a time by their own fields."""
        layout = self._layouts.get((ranking.sheet, ranking.order)) or self._layout(ranking)
        texts = self._cost(ranking.true_cost_pct) + self._gets(ranking.recipient_gets) + self._sent((ranking.send_amount,))
        if layout.fees:
            texts += self._fee(ranking.fee_total)
        parts = layout.frame.copy()
        parts[1::2] = layout.pick(texts)
        return RawJSON("".join(parts))

    def _layout(self, ranking: Ranking) -> Layout:
        quotes, fees = ranking.quotes(), ranking.sheet.fee_varies
        n = len(quotes)
        # where each figure's text is in the list `encode` writes: the costs, the amounts received,
        # the amount sent (one for every entry), then the fees
        place = {"true_cost_pct": lambda j: j, "recipient_gets": lambda j: n + j, "send_amount": lambda j: 2 * n,
                 "fee_total": lambda j: 2 * n + 1 + j}
        holes = set(_FIGURES) if fees else set(_FIGURES) - {"fee_total"}
        frame: list[str | None] = []
        places: list[int] = []
        text = ["["]
        for j, quote in enumerate(quotes):
            text.append(",{" if j else "{")
            for k, (key, value) in enumerate(self.schema.dump(quote).items()):
                text.append(f"{',' if k else ''}{json_text(key)}:")
                figure = self._keys.get(key)
                if figure in holes:
                    frame += ["".join(text), None]
                    places.append(place[figure](j))
                    text = []
                else:
                    text.append(json_text(value))
            text.append("}")
        frame.append("".join([*text, "]"]))
        before, after = self._around(ranking)
        frame[0] = before + frame[0]
        frame[-1] += after  # the same piece as frame[0] when the list is empty
        if len(self._layouts) >= _LIMIT:
            self._layouts.clear()
        layout = self._layouts[ranking.sheet, ranking.order] = Layout(frame, _picker(places), fees)
        return layout


class QuoteList(fields.List):
    """A list of quote entries (OpenAPI and the guide see `List(Nested(schema))`), dumped fast."""

    def __init__(self, schema: type[Schema], priced: tuple[str, ...], **kwargs: Any) -> None:
        super().__init__(fields.Nested(schema), **kwargs)
        self.entries = QuoteEntries(schema, priced)

    def _serialize(self, value: Any, attr: Any, obj: Any, **kwargs: Any) -> list | None:
        return None if value is None else self.entries.dump(value)
