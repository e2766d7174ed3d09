"""Quotes at any amount (SPEC §10), fast: one sheet per (corridor, payout, sort), built at start-up.

Pure: no Flask. A sheet does what `pricing.requote` does, by the same operations in the same
order, so every figure has the same bits; what does not depend on the amount (which offers,
their rates, their order among equal costs) is worked out once, when the sheet is built.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from corridor.model import Corridor, Offer
from corridor.pricing import SORT_ORDERS, CorridorFigures, Quote


class Ranking(NamedTuple):
    """A sheet's offers priced at `send_amount`: `order` indexes `sheet.offers`, best first, and
    the figures that change with the amount follow that order."""

    sheet: QuoteSheet
    send_amount: float
    order: tuple[int, ...]
    true_cost_pct: tuple[float, ...]
    recipient_gets: list[float]

    @property
    def fee_total(self) -> list[float]:
        """fee + amount × fee % / 100 of each ranked offer (SPEC §10)."""
        amount, fees = self.send_amount, self.sheet.fee_terms
        return [fees[i][0] + amount * fees[i][1] / 100 for i in self.order]

    def quotes(self) -> tuple[Quote, ...]:
        """The ranking as `rank_rated` gives it."""
        offers, rates, amount = self.sheet.offers, self.sheet.rates, self.send_amount
        return tuple(Quote(rank, offers[i], rates[i], cost, amount, fee, gets) for rank, i, cost, fee, gets
                     in zip(range(1, len(self.order) + 1), self.order, self.true_cost_pct, self.fee_total, self.recipient_gets))

    def figures(self) -> CorridorFigures:
        """The ranking as `requote` gives it."""
        return CorridorFigures(self.sheet.corridor, self.sheet.mid_market, self.send_amount, self.quotes())


@dataclass(frozen=True, eq=False)  # identity equality and hash: the encoder keys its layouts by sheet
class QuoteSheet:
    """A corridor's offers having one payout method (or all), ready to be ranked in one sort order."""

    corridor: Corridor
    mid_market: float
    reference_amount: float
    offers: tuple[Offer, ...]  # in the order that settles equal keys: `rank` sorts their indexes
    rates: tuple[float, ...]
    leading: tuple | None  # each offer's key before its cost (speed: minutes, score: -score)
    cost_terms: tuple[tuple[float, float, float], ...]  # (100 × fee, fee %, spread %)
    fee_terms: tuple[tuple[float, float], ...]  # (fee, fee %)

    @property
    def fee_varies(self) -> bool:
        """Whether any fee % is not 0: else every fee_total is its fee, at any amount."""
        return any(pct for _, pct in self.fee_terms)

    @classmethod
    def build(cls, figures: CorridorFigures, payout: str | None, sort: str) -> QuoteSheet:
        """The sheet of `figures`' offers having `payout` (all if None), in `sort` order."""
        order = SORT_ORDERS[sort]
        # requote's input: the reference ranking's order, which settles what all keys leave equal
        rated = [(q.offer, q.rate) for q in figures.quotes if payout is None or payout in q.offer.payout_methods]
        # in order of the keys after the cost, then of that input: an index then stands for both
        rated = [pair for _, _, pair in sorted((order.after(o), n, (o, r)) for n, (o, r) in enumerate(rated))]
        offers = tuple(o for o, _ in rated)
        return cls(
            figures.corridor, figures.mid_market, figures.amount, offers, tuple(r for _, r in rated),
            None if order.before is None else tuple(order.before(o) for o in offers),
            tuple((100 * o.flat_fee, o.fee_pct, o.spread_pct) for o in offers),
            tuple((o.flat_fee, o.fee_pct) for o in offers),
        )

    def rank(self, amount: float | None) -> Ranking:
        """The offers priced at `amount` (None: the reference amount) and ranked."""
        amount = self.reference_amount if amount is None else amount
        if not self.offers:
            return Ranking(self, amount, (), (), [])
        # true_cost_pct's arithmetic, in its order: 100 × flat_fee / amount + fee_pct + spread_pct
        costs = [fee / amount + pct + spread for fee, pct, spread in self.cost_terms]
        if self.leading is None:
            costs, order = zip(*sorted(zip(costs, range(len(costs)))))
        else:
            _, costs, order = zip(*sorted(zip(self.leading, costs, range(len(costs)))))
        rates = self.rates
        return Ranking(self, amount, order, costs, [amount * rates[i] for i in order])
