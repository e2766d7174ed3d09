"""The survey's rows as read: each observation's price points, the bounds no survey can leave, and the survey as
imported (corridor/domain/survey.py prices its rows as offers)."""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from collections.abc import Mapping
from dataclasses import dataclass

from corridor.domain.costs import CostHistory

# RPW's pickup methods by a word they hold, the first that matches: `Own/partner Bank account` is a bank deposit
PICKUP_WORDS = (
    ("mobile", "mobile_wallet"),
    ("wallet", "mobile_wallet"),
    ("account", "bank_deposit"),
    ("card", "card"),
    ("home", "home_delivery"),
    ("door", "home_delivery"),
    ("cash", "cash_pickup"),
)
# a row whose note says one of these priced a promotion, not the service's regular terms
PROMOTION_WORDS = re.compile(r"promotion|marketing campaign|discount", re.IGNORECASE)
# values no survey can hold, far from any real one: within them every figure derived from a row stays finite
AMOUNT_BELOW = 1e12  # an amount or rate, in units of any currency, is above 0 and below this
PERCENT_FROM, PERCENT_TO = -100.0, 1000.0  # a margin or total cost %
FEE_TIMES = 100  # a fee is from 0 to this many times its point's amount
FIRST_PERIOD = "2000Q1"


@dataclass(frozen=True, slots=True)
class PricePoint:
    """One of a row's two price points, as published: `cc1` (≈ USD 200) or `cc2` (≈ USD 500)."""

    amount: float  # in the sending currency, `lcu amount`
    fee: float  # `lcu fee`, paid on top
    margin: float  # `fx margin`, %
    total: float  # `total cost %`
    denomination: float | None = None  # the amount in US dollars the survey aimed at


@dataclass(frozen=True, slots=True)
class Observation:
    period: str  # `2025Q3`
    source_country: str  # ISO 3166-1 alpha-3
    destination_country: str
    firm: str
    currency: str  # `cc1 lcu code`: the sending currency
    cc1: PricePoint
    transparent: bool  # False: the service did not disclose its rate, and the margin is unknown
    cc2: PricePoint | None = None
    interbank: float | None = None  # `inter lcu bank fx`: units the recipient gets per unit sent, at interbank
    firm_type: str | None = None
    speed: str | None = None
    pickup: str | None = None
    collected: dt.date | None = None
    source_region: str | None = None  # the World Bank's region of each country, where the rows give it
    destination_region: str | None = None
    note: str | None = None  # the survey's notes on the row, `note1` and `note2` joined by "; "
    payment: str | None = None  # `payment instrument`: how the sender pays

    @property
    def promotion(self) -> bool:
        return bool(self.note and PROMOTION_WORDS.search(self.note))

    @property
    def day(self) -> dt.date:
        return self.collected or period_end(self.period)

    @property
    def disclosed_rate(self) -> float | None:
        return self.interbank if self.transparent and self.interbank and self.interbank > 0 else None


@dataclass(frozen=True, eq=False)
class Survey:
    """The survey as imported: each country pair's latest period, and the corridor id of every pair ever imported."""

    version: int  # the last import's number: a new import is a new version
    latest: tuple[Observation, ...]
    corridor_ids: Mapping[tuple[str, str], int]
    costs: CostHistory | None = None  # every period's averages, by corridor and pooled

    @property
    def summary(self) -> str:
        pairs = {(o.source_country, o.destination_country) for o in self.latest}
        periods = sorted({o.period for o in self.latest})
        span = f"periods {periods[0]}–{periods[-1]}" if len(periods) > 1 else f"period {periods[0]}"
        return f"World Bank RPW import {self.version}: {len(self.latest)} rows of {len(pairs)} country pairs, " + span


def period_end(period: str) -> dt.date:
    """`2025Q3` → 2025-09-30."""
    year, quarter = int(period[:4]), int(period[-1])
    return dt.date(year, 3 * quarter, 30 if quarter in (2, 3) else 31)


def payout_methods(pickup: str | None) -> tuple[str, ...]:
    text = (pickup or "").lower()
    return next(((method,) for word, method in PICKUP_WORDS if word in text), ())


def firm_name(firm: str) -> str:
    return " ".join(firm.split())


class OutOfBounds(ValueError):
    """A row holds a value no survey can; the message names the column and its bound."""


def last_period(today: dt.date) -> str:
    """The latest period a survey can hold on `today`: the quarter after today's."""
    quarter = (today.month - 1) // 3 + 1
    return f"{today.year + quarter // 4}Q{quarter % 4 + 1}"


def bounded(observation: Observation, last: str) -> Observation:
    """The observation with optional figures out of bounds emptied; OutOfBounds naming the first required one out."""
    if not (re.fullmatch("[0-9]{4}Q[1-4]", observation.period) and FIRST_PERIOD <= observation.period <= last):
        raise OutOfBounds(f"period is not from {FIRST_PERIOD} to {last}, the quarter after today")
    points = {}
    for prefix in ("cc1", "cc2"):
        point = getattr(observation, prefix)
        if point is None:
            continue
        if not 0 < point.amount < AMOUNT_BELOW:
            raise OutOfBounds(f"{prefix} lcu amount is not above 0 and below 10^12")
        if not 0 <= point.fee <= FEE_TIMES * point.amount:
            raise OutOfBounds(f"{prefix} lcu fee is not from 0 to {FEE_TIMES} times {prefix} lcu amount")
        for name, value in (("fx margin", point.margin), ("total cost %", point.total)):
            if not PERCENT_FROM <= value <= PERCENT_TO:
                raise OutOfBounds(f"{prefix} {name} is not from -100 to 1,000")
        points[prefix] = dataclasses.replace(point, denomination=_within(point.denomination))
    return dataclasses.replace(
        observation, **points, interbank=_within(observation.interbank), collected=_collected(observation)
    )


def _collected(observation: Observation) -> dt.date | None:
    """The collection day, if within a year of its period's quarter: another is a typing error (1990, 9999-12-31), and
    would price the row at that day's rates."""
    day, end = observation.collected, period_end(observation.period)
    return day if day is not None and end - dt.timedelta(days=456) <= day <= end + dt.timedelta(days=366) else None


def _within(value: float | None) -> float | None:
    return value if value is not None and 0 < value < AMOUNT_BELOW else None
