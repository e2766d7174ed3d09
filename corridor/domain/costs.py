"""The survey's cost over time by the World Bank's method (SDG 10.c.1), per corridor and pooled, unrounded: the rules
are in docs/API.md ("Cost over time")."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from itertools import groupby
from statistics import fmean
from typing import Any, ClassVar, TypeVar

from corridor.domain.pricing import SDG_CEILING_PCT, SDG_TARGET_PCT
from corridor.domain.published import COMPUTED_SOURCE, PUBLISHED_SOURCE, PublishedPeriod
from corridor.domain.rounding import round_half_up

SURVEY_POINT_USD = 200  # the survey's `cc1` price point, whose total cost % every average is of
T = TypeVar("T")
# RPW's `speed actual` categories as the settlement texts the service serves: each the category's longest time
SPEEDS = {
    "less than one hour": "1 hour",
    "same day": "1 day",
    "next day": "2 days",
    "2 days": "2 days",
    "3-5 days": "5 days",
    "6 days or more": "6 days",
}
WITHIN_5_DAYS = frozenset({"1 hour", "1 day", "2 days", "5 days"})  # the settlements SmaRT counts


@dataclass(frozen=True, slots=True)
class CostRow:
    period: str
    source_country: str
    destination_country: str
    total: float  # cc1 total cost %
    transparent: bool
    total_500: float | None = None  # cc2 total cost %
    firm_type: str | None = None
    speed: str | None = None
    destination_region: str | None = None


@dataclass(frozen=True, slots=True)
class PeriodCosts:
    period: str
    observations: int
    transparent_observations: int
    average: float | None
    average_500: float | None
    smart: float | None
    lowest: float | None
    by_firm_type: Mapping[str, float]
    source: ClassVar[str] = COMPUTED_SOURCE


@dataclass(frozen=True, slots=True)
class GlobalCosts:
    period: str
    observations: int
    transparent_observations: int
    average: float | None
    smart: float | None  # the mean of the corridors' SmaRT
    corridors: int  # corridors with an average
    corridors_at_or_under_5_pct: int
    corridors_at_or_under_3_pct: int
    by_region: Mapping[str, float]  # destination region → pooled average; empty when the rows name none
    source: ClassVar[str] = COMPUTED_SOURCE


@dataclass(frozen=True, slots=True)
class PublishedFigure:
    cost: float
    source: str = PUBLISHED_SOURCE


@dataclass(frozen=True, slots=True)
class CostPeriod:
    """A corridor's period: the figures computed from the imported rows, the World Bank's published average, or both."""

    period: str
    computed: PeriodCosts | None = None
    published: PublishedFigure | None = None

    @property
    def average(self) -> float | None:
        return self.computed.average if self.computed else None

    @property
    def smart(self) -> float | None:
        return self.computed.smart if self.computed else None

    @property
    def published_average(self) -> float | None:
        return self.published.cost if self.published else None


@dataclass(frozen=True, slots=True)
class CorridorCosts:
    """A corridor's periods, oldest first, by its country pair `KEN-TZA`."""

    key: str
    source_name: str  # the sending country's name
    destination_name: str
    from_currency: str | None
    to_currency: str | None
    periods: tuple[CostPeriod, ...]


def corridor_periods(computed: Iterable[PeriodCosts], published: Iterable[tuple[str, float]]) -> tuple[CostPeriod, ...]:
    return _merged(computed, ((period, PublishedFigure(cost)) for period, cost in published), CostPeriod)


def _merged(computed: Iterable[Any], published: Iterable[tuple[str, Any]], make: Callable[..., T]) -> tuple[T, ...]:
    """`make(period, computed or None, published or None)` for each period either kind has, oldest first."""
    by_computed = {p.period: p for p in computed}
    by_published = dict(published)
    return tuple(
        make(period, by_computed.get(period), by_published.get(period))
        for period in sorted(by_computed.keys() | by_published.keys())
    )


@dataclass(frozen=True, slots=True)
class CostCorridor:
    """A country pair with any cost figure as the list shows it: its latest period of each kind, and its flow."""

    costs: CorridorCosts
    annual_flow_bn: float | None
    flow_year: int | None
    flow_source: str | None

    @property
    def position(self) -> int:
        """The pair as a number in alphabetical order (`AAA-AAA` is 0): a page's start, whatever pairs come or go."""
        number = 0
        for letter in self.costs.key.replace("-", ""):
            number = number * 26 + ord(letter) - ord("A")
        return number

    @property
    def latest_period(self) -> str:
        return self.costs.periods[-1].period

    @property
    def latest_published_period(self) -> str | None:
        return next((p.period for p in reversed(self.costs.periods) if p.published), None)

    @property
    def latest_published_average(self) -> float | None:
        return next((p.published_average for p in reversed(self.costs.periods) if p.published), None)

    @property
    def latest_computed_period(self) -> str | None:
        return next((p.period for p in reversed(self.costs.periods) if p.average is not None), None)

    @property
    def latest_computed_average(self) -> float | None:
        return next((p.average for p in reversed(self.costs.periods) if p.average is not None), None)


@dataclass(frozen=True, slots=True)
class GlobalPeriod:
    """A period's global figures: the survey rows' pooled ones, the published averages' mean over corridors, or both."""

    period: str
    computed: GlobalCosts | None = None
    published: PublishedPeriod | None = None


def global_periods(computed: Iterable[GlobalCosts], published: Iterable[PublishedPeriod]) -> tuple[GlobalPeriod, ...]:
    return _merged(computed, ((p.period, p) for p in published), GlobalPeriod)


@dataclass(frozen=True, eq=False)
class CostHistory:
    corridors: Mapping[str, tuple[PeriodCosts, ...]]
    periods: tuple[GlobalCosts, ...]


def period_costs(period: str, rows: list[CostRow]) -> PeriodCosts:
    disclosed = [row for row in rows if row.transparent]
    totals = [row.total for row in disclosed]
    fast = sorted(row.total for row in disclosed if settlement(row.speed) in WITHIN_5_DAYS)
    by_type: dict[str, list[float]] = {}
    for row in disclosed:
        if row.firm_type:
            by_type.setdefault(row.firm_type, []).append(row.total)
    at_500 = [row.total_500 for row in disclosed if row.total_500 is not None]
    return PeriodCosts(
        period=period,
        observations=len(rows),
        transparent_observations=len(disclosed),
        average=fmean(totals) if totals else None,
        average_500=fmean(at_500) if at_500 else None,
        smart=fmean(fast[:3]) if fast else None,
        lowest=min(totals, default=None),
        by_firm_type={kind: fmean(values) for kind, values in sorted(by_type.items())},
    )


@dataclass
class _Period:
    corridors: list[PeriodCosts] = field(default_factory=list)
    totals: list[float] = field(default_factory=list)  # every transparent row's, pooled
    regions: dict[str, list[float]] = field(default_factory=dict)


def cost_history(rows: Iterable[CostRow]) -> CostHistory:
    """From rows ordered by country pair, then period: each group is held only while summed, so a release streams."""
    corridors: dict[str, list[PeriodCosts]] = {}
    periods: dict[str, _Period] = {}
    for (source, destination, period), grouped in groupby(
        rows, key=lambda row: (row.source_country, row.destination_country, row.period)
    ):
        group = list(grouped)
        costs = period_costs(period, group)
        corridors.setdefault(f"{source}-{destination}", []).append(costs)
        pooled = periods.setdefault(period, _Period())
        pooled.corridors.append(costs)
        for row in group:
            if row.transparent:
                pooled.totals.append(row.total)
                if row.destination_region:
                    pooled.regions.setdefault(row.destination_region, []).append(row.total)
    return CostHistory(
        {pair: tuple(sorted(costs, key=lambda c: c.period)) for pair, costs in corridors.items()},
        tuple(_global(period, pooled) for period, pooled in sorted(periods.items())),
    )


def _global(period: str, pooled: _Period) -> GlobalCosts:
    averages = [c.average for c in pooled.corridors if c.average is not None]
    smarts = [c.smart for c in pooled.corridors if c.smart is not None]
    return GlobalCosts(
        period=period,
        observations=sum(c.observations for c in pooled.corridors),
        transparent_observations=len(pooled.totals),
        average=fmean(pooled.totals) if pooled.totals else None,
        smart=fmean(smarts) if smarts else None,
        corridors=len(averages),
        # as shown, to 2 decimals, as every comparison with a target is made
        corridors_at_or_under_5_pct=sum(round_half_up(a, 2) <= SDG_CEILING_PCT for a in averages),
        corridors_at_or_under_3_pct=sum(round_half_up(a, 2) <= SDG_TARGET_PCT for a in averages),
        by_region={region: fmean(values) for region, values in sorted(pooled.regions.items())},
    )


def in_range(periods: Iterable, start: str | None, end: str | None) -> tuple:
    return tuple(p for p in periods if (start is None or p.period >= start) and (end is None or p.period <= end))


def settlement(speed: str | None) -> str | None:
    """The settlement text of RPW's `speed actual`; None for one it does not give (or no speed)."""
    return SPEEDS.get(re.sub(r"\s+", " ", (speed or "").replace("–", "-")).strip().lower())
