"""Ranked quotes dumped with each offer's own part made once: a quote at a new amount spent most of its time dumping
again the fields that follow from the offer alone. A one-off USD_MXN quote on the shipped survey, in process, median of
3,000 at random amounts, four runs on a busy machine (2026-11-28): Group A 1.3–2.1 ms against 5.7–7.9 ms dumped whole,
Group B 2.3–4.1 against 7.3–8.3 ms."""

from __future__ import annotations

from operator import attrgetter
from typing import Any

from marshmallow import Schema

from corridor.domain.rounding import shown
from schemas.fields import Rounded

# offers whose own part a schema keeps (about 1.3 KB each), then starts again: the shipped data has some 300, and a
# list of a large file's every offer runs through them at most once per data version
OFFER_PARTS_KEPT = 1_000


class RankedEntrySchema(Schema):
    """An entry of a ranked list, dumped from a Quote. A list of quotes (`many`) dumps the fields that follow from the
    offer alone whatever the amount (those read through it, `offer.…`, and those `per_offer` names) once per offer and
    payout currency and keeps them; then each quote's other fields, read as plain attributes, a Rounded one rounded by
    the field itself; the two are joined in the schema's key order, byte for byte what a plain dump writes
    (tests/test_ranked_entries.py). Such a schema has no pre- or post-dump hooks."""

    per_offer: tuple[str, ...] = ()

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if unknown := set(self.per_offer) - set(self.declared_fields):
            raise ValueError(f"{type(self).__name__}.per_offer names no field {sorted(unknown)}")
        offer_part = (
            *self.per_offer,
            *(name for name, field in self.declared_fields.items() if (field.attribute or "").startswith("offer.")),
        )
        self._split = bool(offer_part) and self.only is None and not self.exclude
        # from a tuple: fromkeys of a dict sizes its table for twice the keys, and every entry copies the table
        self._order = dict.fromkeys(tuple(field.data_key or name for name, field in self.dump_fields.items()))
        quote_fields = [(field.data_key or name, name, field) for name, field in self.dump_fields.items()]
        quote_fields = [(key, name, field) for key, name, field in quote_fields if name not in offer_part]
        paths = [name for _, name, field in quote_fields if "." in (field.attribute or "")]
        if self._split and paths:
            raise ValueError(f"{type(self).__name__}: {paths} read through another object than the offer")
        self._rounded = tuple(
            (key, attrgetter(name), field.places, field.digits, field.text)
            for key, name, field in quote_fields
            if isinstance(field, Rounded)
        )
        self._others = tuple((key, name, field) for key, name, field in quote_fields if not isinstance(field, Rounded))
        # of this class too, but with `only`: it dumps whole
        self._offer_part = type(self)(only=offer_part) if self._split else None
        self._kept: dict[tuple[int, str], tuple[Any, dict]] = {}

    def dump(self, obj: Any, *, many: bool | None = None) -> Any:
        offer_schema = self._offer_part
        if offer_schema is None or not (self.many if many is None else many):
            return super().dump(obj, many=many)
        quotes = tuple(obj)
        entries = []
        for quote in quotes:
            # by the offer's identity, not its equality (hashing its every field): it is held with its part, so its
            # id names no other offer while the part is kept
            key = (id(quote.offer), quote.payout_currency)
            found = self._kept.get(key)
            if found is None:
                if len(self._kept) >= OFFER_PARTS_KEPT:
                    self._kept.clear()
                found = self._kept[key] = (quote.offer, {**self._order, **offer_schema.dump(quote)})
            entry = found[1].copy()
            # getattr, not marshmallow's default accessor: a quote's own fields are attributes, not paths or keys
            for name_in_entry, name, field in self._others:
                entry[name_in_entry] = field.serialize(name, quote, getattr)
            entries.append(entry)
        # a Rounded field's column at a time, as the field would show each figure: a call per figure was a third of
        # the dump (rounding.rounded_half_up)
        for name_in_entry, read, places, digits, text in self._rounded:
            for entry, figure in zip(entries, shown(map(read, quotes), places, digits, text), strict=True):
                entry[name_in_entry] = figure
        return entries
