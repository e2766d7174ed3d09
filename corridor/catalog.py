"""Everything servable, priced once per worker from an immutable dataset. Pure: no Flask."""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Iterable, Mapping

from corridor.currencies import Currency, named_currencies
from corridor.model import Dataset
from corridor.pricing import SORT_ORDERS, CorridorFigures, MidRate, corridor_figures, mid_rate
from corridor.quoting import QuoteSheet

SheetKey = tuple[str, str | None, str]  # (corridor key, payout method or None, sort)


@dataclass(frozen=True, eq=False)  # identity equality and hash: one catalog per loaded file
class Catalog:
    """Active corridors priced at the reference amount, looked up by key or by id."""

    dataset: Dataset
    by_key: Mapping[str, CorridorFigures]
    by_id: Mapping[str, CorridorFigures]
    currencies: tuple[Currency, ...]
    sheets: Mapping[SheetKey, QuoteSheet]

    @classmethod
    def build(cls, dataset: Dataset, payout_methods: Iterable[str] = ()) -> "Catalog":
        """Price every active corridor once (inactive ones are served nowhere), with a quote sheet
        for each sort and each payout: all, `payout_methods` (those a query may name) and any an
        offer has."""
        figures = [corridor_figures(dataset, c) for c in dataset.active_corridors]
        return cls(
            dataset,
            MappingProxyType({f.corridor.key: f for f in figures}),
            MappingProxyType({str(f.corridor.id): f for f in figures}),
            named_currencies(dataset.currencies),
            MappingProxyType({
                (f.corridor.key, payout, sort): QuoteSheet.build(f, payout, sort)
                for f in figures
                for payout in (None, *sorted({*payout_methods, *(m for q in f.quotes for m in q.offer.payout_methods)}))
                for sort in SORT_ORDERS
            }),
        )

    @property
    def corridors(self) -> tuple[CorridorFigures, ...]:
        """Active corridors by id."""
        return tuple(self.by_key.values())

    def quote_sheet(self, key: str, payout: str | None, sort: str) -> QuoteSheet:
        """The sheet of an active corridor's offers having `payout` (all if None) in `sort` order,
        built at start-up: one with no offers when none has it."""
        return self.sheets[key, payout, sort]

    def has_currency(self, code: str) -> bool:
        """Whether `code` is in the rate tables."""
        return code in self.dataset.rates.interbank

    def mid_rate(self, from_currency: str, to_currency: str) -> MidRate:
        """Reference rates for a pair of known currencies."""
        return mid_rate(self.dataset, from_currency, to_currency)
