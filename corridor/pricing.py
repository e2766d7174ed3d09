"""Derived figures of SPEC §2: rates, true cost, ranking. Pure: no Flask, no I/O, no rounding."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from statistics import fmean
from typing import Any, Callable, Iterable, Mapping, NamedTuple

from corridor.model import Corridor, Dataset, Offer

UNIT_MINUTES = {"minute": 1, "hour": 60, "day": 24 * 60}


def settlement_minutes(text: str) -> int:
    """`'2 hours'` → 120; the text is validated at load time."""
    number, unit = text.split(" ")
    return int(number) * UNIT_MINUTES[unit.removesuffix("s")]


def cross_rate(table: Mapping[str, float], from_currency: str, to_currency: str) -> float:
    """Units of `to_currency` per one `from_currency` in a base-relative table."""
    return table[to_currency] / table[from_currency]


def reference_amount(dataset: Dataset, currency: str) -> float:
    """The reference send amount (USD 200 by default) expressed in `currency`."""
    interbank = dataset.rates.interbank
    return dataset.reference_amount_usd * interbank[currency] / interbank["USD"]


def provider_rate(mid: float, offer: Offer) -> float:
    """The rate a provider gives: mid-market less its spread."""
    return mid * (1 - offer.spread_pct / 100)


def true_cost_pct(offer: Offer, amount: float) -> float:
    """World Bank RPW total cost: fees paid on top plus the FX margin, as % of `amount`."""
    return 100 * offer.flat_fee / amount + offer.fee_pct + offer.spread_pct


class Quote(NamedTuple):
    """An offer priced at one send amount, with its position in a ranking; `rank_rated` makes them.

    A NamedTuple, not a frozen dataclass like the rest: one-off quotes build several per request,
    and a frozen dataclass's __init__ (a checked setattr per field) costs five times as much.
    """

    rank: int
    offer: Offer
    rate: float
    true_cost_pct: float
    send_amount: float
    fee_total: float  # fees paid on top of the amount, source currency
    recipient_gets: float  # what arrives, destination currency: the whole amount at the provider's rate

    @property
    def settlement_minutes(self) -> int:
        """The settlement text in minutes."""
        return settlement_minutes(self.offer.settlement)


class SortOrder(NamedTuple):
    """How an order compares two offers: `before` the true cost (if anything), then the cost, then
    `after` it; equal keys keep the order the offers came in."""

    before: Callable[[Offer], Any] | None
    after: Callable[[Offer], tuple]

    def key(self, cost: float, offer: Offer) -> tuple:
        """The whole key of an offer costing `cost`."""
        after = self.after(offer)
        return (cost, *after) if self.before is None else (self.before(offer), cost, *after)


SORT_ORDERS = {
    "cost": SortOrder(None, lambda o: (-o.svc_score, o.provider)),
    "speed": SortOrder(lambda o: settlement_minutes(o.settlement), lambda o: (-o.svc_score, o.provider)),
    "score": SortOrder(lambda o: -o.svc_score, lambda o: (o.provider,)),
}


def rank_offers(offers: Iterable[Offer], mid: float, amount: float, sort: str = "cost") -> tuple[Quote, ...]:
    """Offers priced at `amount` in `sort` order, ranks from 1; `cost`: cheapest, then score, then name."""
    return rank_rated([(offer, provider_rate(mid, offer)) for offer in offers], amount, sort)


def rank_rated(rated: Iterable[tuple[Offer, float]], amount: float, sort: str = "cost") -> tuple[Quote, ...]:
    """(offer, its rate) pairs priced at `amount` in `sort` order, ranks from 1; equal keys keep
    the order given."""
    order = SORT_ORDERS[sort].key
    ranked = []
    for position, (offer, rate) in enumerate(rated):
        cost = true_cost_pct(offer, amount)
        ranked.append((order(cost, offer), position, cost, offer, rate))
    ranked.sort()  # decorated, not sorted(key=…): one call per offer fewer, on every one-off quote
    return tuple([
        # fee_total: flat_fee + amount × fee_pct / 100; recipient_gets: amount × rate (SPEC §10)
        Quote(rank, offer, rate, cost, amount, offer.flat_fee + amount * offer.fee_pct / 100, amount * rate)
        for rank, (_, _, cost, offer, rate) in enumerate(ranked, start=1)
    ])


@dataclass(frozen=True, slots=True)
class CorridorFigures:
    """A corridor with its mid-market rate and its offers ranked at a send amount."""

    corridor: Corridor
    mid_market: float
    amount: float
    quotes: tuple[Quote, ...]

    @property
    def best(self) -> Quote:
        """The rank-1 quote."""
        return self.quotes[0]

    @property
    def best_cost(self) -> float:
        """Lowest true cost over the corridor's offers."""
        return min(q.true_cost_pct for q in self.quotes)

    @property
    def avg_cost(self) -> float:
        """Mean true cost over the corridor's offers."""
        return fmean(q.true_cost_pct for q in self.quotes)

    @property
    def settlement(self) -> str:
        """The fastest offer's settlement text; among equally fast ones, the best ranked."""
        return min(self.quotes, key=lambda q: settlement_minutes(q.offer.settlement)).offer.settlement


def corridor_figures(dataset: Dataset, corridor: Corridor) -> CorridorFigures:
    """Price a corridor at the data's reference amount."""
    mid = cross_rate(dataset.rates.interbank, corridor.from_currency, corridor.to_currency)
    amount = reference_amount(dataset, corridor.from_currency)
    return CorridorFigures(corridor, mid, amount, rank_offers(corridor.offers, mid, amount))


def requote(figures: CorridorFigures, amount: float | None, payout: str | None, sort: str) -> CorridorFigures:
    """The corridor's offers having `payout` (all if None), priced at `amount` (else the reference
    amount), in `sort` order, ranks renumbered; the result may hold no quotes.

    SPEC §10 as plainly as it reads. Requests take `corridor.quoting.QuoteSheet`, which does the
    same arithmetic with everything independent of the amount done once; tests hold the two equal.
    """
    amount = figures.amount if amount is None else amount
    # the rates priced at start-up, in their reference ranking: every order ends with the provider
    # name, one per corridor, so the order offers come in never decides
    rated = [(q.offer, q.rate) for q in figures.quotes if payout is None or payout in q.offer.payout_methods]
    return CorridorFigures(figures.corridor, figures.mid_market, amount, rank_rated(rated, amount, sort))


@dataclass(frozen=True, slots=True)
class MidRate:
    """The two reference rates for a currency pair."""

    from_currency: str
    to_currency: str
    ref_rate_a: float
    ref_rate_b: float
    updated: dt.date


def mid_rate(dataset: Dataset, from_currency: str, to_currency: str) -> MidRate:
    """Consumer-table rate (a) and interbank mid-market rate (b) for any pair."""
    rates = dataset.rates
    return MidRate(
        from_currency,
        to_currency,
        cross_rate(rates.consumer, from_currency, to_currency),
        cross_rate(rates.interbank, from_currency, to_currency),
        dataset.as_of,
    )
