"""Every derived figure: rates, true cost, quotes and ranking. Unrounded: rounding is the schemas' job."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from statistics import fmean

from corridor.domain.model import Corridor, Dataset, Offer, pair_sources
from corridor.domain.rounding import round_half_up

SDG_TARGET_PCT, SDG_CEILING_PCT = 3.0, 5.0  # UN SDG 10.c: an average of 3 % at most, no corridor above 5 %

UNIT_MINUTES = {"minute": 1, "hour": 60, "day": 24 * 60}


def settlement_minutes(text: str) -> int:
    """`'2 hours'` → 120; the text was validated when the data loaded."""
    number, unit = text.split(" ")
    return int(number) * UNIT_MINUTES[unit.removesuffix("s")]


def cross_rate(table: Mapping[str, float], from_currency: str, to_currency: str) -> float:
    """Units of `to_currency` per one `from_currency` in a base-relative table."""
    return table[to_currency] / table[from_currency]


def reference_amount(dataset: Dataset, currency: str) -> float:
    """The reference send amount (USD 200 in the shipped data) expressed in `currency`."""
    interbank = dataset.rates.interbank
    return dataset.reference_amount_usd * interbank[currency] / interbank["USD"]


def provider_rate(mid: float, offer: Offer) -> float:
    """The rate a provider gives: mid-market less its spread."""
    return mid * (1 - offer.spread_pct / 100)


def true_cost_pct(offer: Offer, amount: float) -> float:
    """World Bank RPW total cost: fees paid on top plus the FX margin, as % of `amount`."""
    return 100 * offer.flat_fee / amount + offer.fee_pct + offer.spread_pct


@dataclass(frozen=True, slots=True)
class Quote:
    """An offer priced at one send amount (exact: a receive amount ÷ the rate, in receive mode), at its place in a
    ranking."""

    rank: int
    offer: Offer
    rate: float
    send_amount: float

    @property
    def true_cost_pct(self) -> float:
        """Fees plus FX margin as % of the send amount."""
        return true_cost_pct(self.offer, self.send_amount)

    @property
    def fee_total(self) -> float:
        """Fees paid on top of the amount, source currency."""
        return self.offer.flat_fee + self.send_amount * self.offer.fee_pct / 100

    @property
    def recipient_gets(self) -> float:
        """What arrives, destination currency: the whole amount at the provider's rate."""
        return self.send_amount * self.rate

    @property
    def total_paid(self) -> float:
        """What the sender pays in all, source currency: the amount and the fees on top."""
        return self.send_amount + self.fee_total

    @property
    def settlement_minutes(self) -> int:
        """The settlement text in minutes."""
        return settlement_minutes(self.offer.settlement)


# each order's key for an offer at a true cost; the provider name settles every remaining tie
SORT_ORDERS: dict[str, Callable[[Offer, float], tuple]] = {
    "cost": lambda offer, cost: (cost, -offer.svc_score, offer.provider),
    "speed": lambda offer, cost: (settlement_minutes(offer.settlement), cost, -offer.svc_score, offer.provider),
    "score": lambda offer, cost: (-offer.svc_score, cost, offer.provider),
}


def rank_offers(
    offers: tuple[Offer, ...], mid: float, amount: float, sort: str = "cost", receive: float | None = None
) -> tuple[Quote, ...]:
    """The offers priced at `amount`, or at what delivers `receive`, in `sort` order, ranks from 1."""
    # sending `amount`, cost is the true cost; delivering `receive`, it is the total paid
    order = SORT_ORDERS[sort]
    unranked = []
    for offer in offers:
        rate = provider_rate(mid, offer)
        quote = Quote(0, offer, rate, amount if receive is None else receive / rate)
        unranked.append((order(offer, quote.true_cost_pct if receive is None else quote.total_paid), quote))
    unranked.sort(key=lambda pair: pair[0])
    return tuple(Quote(rank, q.offer, q.rate, q.send_amount) for rank, (_, q) in enumerate(unranked, start=1))


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
    def count(self) -> int:
        """The number of quotes."""
        return len(self.quotes)

    @property
    def best_cost(self) -> float:
        """Lowest true cost over the quotes."""
        return min(q.true_cost_pct for q in self.quotes)

    @property
    def avg_cost(self) -> float:
        """Mean true cost over the quotes."""
        return fmean(q.true_cost_pct for q in self.quotes)

    @property
    def settlement(self) -> str:
        """The fastest offer's settlement text; among equally fast ones, the best ranked."""
        return min(self.quotes, key=lambda q: q.settlement_minutes).offer.settlement

    @property
    def sdg_target_met(self) -> bool:
        """The mean true cost, as shown (2 decimals), is at most the SDG 10.c target of 3 %."""
        return round_half_up(self.avg_cost, 2) <= SDG_TARGET_PCT

    @property
    def offers_over_5_pct(self) -> int:
        """Offers whose true cost, as shown (2 decimals), exceeds 5 %."""
        return sum(round_half_up(q.true_cost_pct, 2) > SDG_CEILING_PCT for q in self.quotes)

    @property
    def smart_cost(self) -> float:
        """Mean true cost of the three cheapest offers (the World Bank's SmaRT idea)."""
        return fmean(sorted(q.true_cost_pct for q in self.quotes)[:3])


def corridor_figures(
    dataset: Dataset,
    corridor: Corridor,
    amount: float | None = None,
    payout: str | None = None,
    sort: str = "cost",
    receive: float | None = None,
) -> CorridorFigures:
    """The corridor's offers with `payout` (all if None), priced at `amount` (None: the reference) or to deliver
    `receive`, sorted."""
    mid = cross_rate(dataset.rates.interbank, corridor.from_currency, corridor.to_currency)
    amount = reference_amount(dataset, corridor.from_currency) if amount is None else amount
    offers = tuple(o for o in corridor.offers if payout is None or payout in o.payout_methods)
    return CorridorFigures(corridor, mid, amount, rank_offers(offers, mid, amount, sort, receive))


@dataclass(frozen=True, slots=True)
class MidRate:
    """The two reference rates for a currency pair."""

    from_currency: str
    to_currency: str
    ref_rate_a: float
    ref_rate_b: float
    updated: dt.date


def mid_rate(dataset: Dataset, from_currency: str, to_currency: str) -> MidRate:
    """Consumer-table rate (a) and interbank mid-market rate (b) for any pair, of the older of its rates' days."""
    rates = dataset.rates
    return MidRate(
        from_currency,
        to_currency,
        cross_rate(rates.consumer, from_currency, to_currency),
        cross_rate(rates.interbank, from_currency, to_currency),
        min(source.date for source in pair_sources(rates, from_currency, to_currency)),
    )
