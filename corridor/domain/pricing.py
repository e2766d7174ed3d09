"""Every derived figure: rates, true cost, quotes and ranking. Unrounded: rounding is the schemas' job."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from statistics import fmean

from corridor.domain.model import SAMPLE, Corridor, Dataset, Offer, priced_from
from corridor.domain.rounding import round_half_up

SDG_TARGET_PCT, SDG_CEILING_PCT = 3.0, 5.0  # UN SDG 10.c: an average of 3 % at most, no corridor above 5 %

UNIT_MINUTES = {"minute": 1, "hour": 60, "day": 24 * 60}


def settlement_minutes(text: str) -> int:
    """`'2 hours'` → 120; the text was validated when the data loaded."""
    number, unit = text.split(" ")
    return int(number) * UNIT_MINUTES[unit.removesuffix("s")]


def cross_rate(table: Mapping[str, float], from_currency: str, to_currency: str) -> float:
    return table[to_currency] / table[from_currency]


def reference_amount(dataset: Dataset, currency: str) -> float:
    interbank = dataset.rates.interbank
    return dataset.reference_amount_usd * interbank[currency] / interbank["USD"]


def _true_cost(fee: float, margin: float | None, amount: float) -> float | None:
    """World Bank RPW total cost: fees on top plus the FX margin, as % of `amount`; None with an undisclosed margin."""
    return None if margin is None else 100 * fee / amount + margin


# not frozen: a quote at a new amount makes one per offer, and a frozen dataclass takes three times as long to make
# (1.6 against 0.5 µs); none is changed once ranked
@dataclass(slots=True)
class Quote:
    """An offer priced at one send amount, ranked, its figures worked out once (a list of quotes reads each several
    times); `payout_rate`: to its `payout_currency` where not the corridor's; `spread_pct`: the margin at the amount
    sent, the offer's own without one."""

    rank: int
    offer: Offer
    rate: float | None
    send_amount: float | None
    payout_currency: str
    payout_rate: float | None
    spread_pct: float | None
    fee_total: float | None
    true_cost_pct: float | None

    @property
    def recipient_gets(self) -> float | None:
        return None if self.send_amount is None or self.rate is None else self.send_amount * self.rate

    @property
    def payout_amount(self) -> float | None:
        return None if self.send_amount is None or self.payout_rate is None else self.send_amount * self.payout_rate

    @property
    def total_paid(self) -> float | None:
        return None if self.send_amount is None or self.fee_total is None else self.send_amount + self.fee_total

    @property
    def settlement_minutes(self) -> int | None:
        return _minutes(self.offer)


def _minutes(offer: Offer) -> int | None:
    return None if offer.settlement is None else settlement_minutes(offer.settlement)


# each order's key for an offer at a cost (None: unknown, after every known one); the provider name, then the order
# the offers come in (the survey's rows) settle every remaining tie. By cost, a promotion's price comes after every
# regular one known: it is not what the provider charges once the campaign ends.
SORT_ORDERS: dict[str, Callable[[Offer, float | None], tuple]] = {
    "cost": lambda offer, cost: (
        cost is None,
        offer.promotion,
        cost or 0,
        *_last_if_none(_minus(offer.svc_score)),
        offer.provider,
    ),
    "speed": lambda offer, cost: (
        *_last_if_none(_minutes(offer)),
        *_last_if_none(cost),
        *_last_if_none(_minus(offer.svc_score)),
        offer.provider,
    ),
    "score": lambda offer, cost: (*_last_if_none(_minus(offer.svc_score)), *_last_if_none(cost), offer.provider),
}


def _last_if_none(value: float | int | None) -> tuple[bool, float]:
    return value is None, value or 0


def _minus(score: int | None) -> int | None:
    return None if score is None else -score


def rank_offers(
    offers: tuple[Offer, ...],
    mid: float | None,
    amount: float,
    sort: str = "cost",
    receive: float | None = None,
    *,
    receiving: str = "",
    mids: Mapping[str, float | None] | None = None,
) -> tuple[Quote, ...]:
    """The offers priced at `amount`, or at what delivers `receive` (in `receiving`), in `sort` order, ranks from 1.
    `mid`: the mid-market rate to `receiving` (None: it has none); `mids`: to any other currency offers pay out in."""
    # sending `amount`, cost is the true cost; delivering `receive`, it is the total paid
    order = SORT_ORDERS[sort]
    priced = []
    for offer in offers:
        payout = offer.payout_currency or receiving
        to_payout = None if payout == receiving else (mids or {}).get(payout)
        if receive is not None:
            margin = None if mid is None else _margin_to_deliver(mid, offer, receive)
            send = None if mid is None or margin is None else receive / (mid * (1 - margin / 100))
        else:
            margin, send = offer.margin(amount), amount
        spread, fee, cost, paid = offer.spread_pct, None, None, None
        if send is not None:
            spread = margin if receive is None else offer.margin(send)
            fee = offer.fee(send)
            cost, paid = _true_cost(fee, spread, send), send + fee
        figures = (offer, _at(mid, margin), send, payout, _at(to_payout, margin), spread, fee, cost)
        priced.append((order(offer, cost if receive is None else paid), figures))
    priced.sort(key=lambda pair: pair[0])
    return tuple(Quote(rank, *figures) for rank, (_, figures) in enumerate(priced, start=1))


def _at(mid: float | None, margin: float | None) -> float | None:
    return None if mid is None or margin is None else mid * (1 - margin / 100)


def _margin_to_deliver(mid: float, offer: Offer, receive: float) -> float | None:
    """The margin of the price point whose margin, applied, sends an amount nearest that point; the lower if none
    does (an offer of two points may take either, to deliver `receive`)."""
    if not offer.margins:
        return offer.spread_pct
    fitting = [margin for _, margin in offer.margins if offer.margin(receive / (mid * (1 - margin / 100))) == margin]
    return min(fitting or (margin for _, margin in offer.margins))


@dataclass(frozen=True, slots=True)
class CorridorFigures:
    """A corridor's offers ranked at a send amount; averages and counts are over the offers whose true cost is known."""

    corridor: Corridor
    mid_market: float | None
    amount: float
    quotes: tuple[Quote, ...]

    @property
    def best(self) -> Quote | None:
        return self.quotes[0] if self.quotes else None

    @property
    def count(self) -> int:
        return len(self.quotes)

    @property
    def costs(self) -> list[float]:
        return [q.true_cost_pct for q in self.quotes if q.true_cost_pct is not None]

    @property
    def best_cost(self) -> float | None:
        """Lowest true cost over the quotes at regular prices; over the promotions' if only they have one."""
        regular = [q.true_cost_pct for q in self.quotes if q.true_cost_pct is not None and not q.offer.promotion]
        return min(regular or self.costs, default=None)

    @property
    def avg_cost(self) -> float | None:
        return fmean(self.costs) if self.costs else None

    @property
    def settlement(self) -> str | None:
        """The fastest offer's; among equally fast ones, the best ranked."""
        timed = [(minutes, q.offer.settlement) for q in self.quotes if (minutes := q.settlement_minutes) is not None]
        return min(timed, key=lambda pair: pair[0])[1] if timed else None

    @property
    def sdg_target_met(self) -> bool | None:
        """The mean true cost, as shown (2 decimals), is at most the SDG 10.c target of 3 %."""
        return None if self.avg_cost is None else round_half_up(self.avg_cost, 2) <= SDG_TARGET_PCT

    @property
    def offers_over_5_pct(self) -> int:
        """Offers whose true cost, as shown (2 decimals), exceeds 5 %."""
        return sum(round_half_up(cost, 2) > SDG_CEILING_PCT for cost in self.costs)

    @property
    def smart_cost(self) -> float | None:
        """The World Bank's SmaRT idea: the mean true cost of the three cheapest offers."""
        return fmean(sorted(self.costs)[:3]) if self.costs else None

    @property
    def surveyed(self) -> tuple[str, dt.date | None, dt.date | None] | None:
        """The survey's latest period among the offers, and the first and last days they were collected in it."""
        period = max((q.offer.period for q in self.quotes if q.offer.period is not None), default=None)
        if period is None:
            return None
        days = [q.offer.collected for q in self.quotes if q.offer.period == period and q.offer.collected is not None]
        return period, min(days, default=None), max(days, default=None)

    @property
    def prices(self) -> str:
        """Where the corridor's prices come from: the survey's latest period, `2025Q3`, or `sample`."""
        return SAMPLE if self.surveyed is None else self.surveyed[0]


def corridor_figures(
    dataset: Dataset,
    corridor: Corridor,
    amount: float | None = None,
    payout: str | None = None,
    sort: str = "cost",
    receive: float | None = None,
) -> CorridorFigures:
    """The offers with `payout` (all if None), priced at `amount` (None: the reference) or delivering `receive`."""
    interbank = dataset.rates.interbank
    codes = {corridor.to_currency, *(o.payout_currency for o in corridor.offers if o.payout_currency)}
    mids = {code: cross_rate(interbank, corridor.from_currency, code) if code in interbank else None for code in codes}
    mid = mids[corridor.to_currency]
    amount = reference_amount(dataset, corridor.from_currency) if amount is None else amount
    offers = tuple(o for o in corridor.offers if payout is None or payout in o.payout_methods)
    quotes = rank_offers(offers, mid, amount, sort, receive, receiving=corridor.to_currency, mids=mids)
    return CorridorFigures(corridor, mid, amount, quotes)


@dataclass(frozen=True, slots=True)
class MidRate:
    from_currency: str
    to_currency: str
    ref_rate_a: float
    ref_rate_b: float
    updated: dt.date


def mid_rate(dataset: Dataset, from_currency: str, to_currency: str) -> MidRate:
    """Consumer-table rate (a) and interbank mid-market rate (b) for any pair, of the older of its rates' days."""
    rates, pair = dataset.rates, (from_currency, to_currency)
    updated = min(rates.sources[code].date for code in priced_from(rates, *pair))
    return MidRate(*pair, cross_rate(rates.consumer, *pair), cross_rate(rates.interbank, *pair), updated)
