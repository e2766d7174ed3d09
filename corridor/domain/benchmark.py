"""The UN SDG 10.c figures over a set of corridors priced at the reference amount."""

# A figure with nothing to average (no active corridor, or no flow to weigh by) is None, shown as
# null: a data file may deactivate every corridor, or give every flow as 0. A corridor none of whose offers discloses
# its margin has no mean cost, and is not measured; one without a flow (a corridor only the survey has) is left out of
# the weighted mean.

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from statistics import fmean

from corridor.domain.costs import GlobalPeriod
from corridor.domain.model import SAMPLE
from corridor.domain.pricing import CorridorFigures

SURVEYED = "surveyed"


@dataclass(frozen=True, slots=True)
class Benchmark:
    """The figures over corridors of one kind of prices (`prices`), the sample ones' apart when these are surveyed."""

    active: tuple[CorridorFigures, ...]
    survey: GlobalPeriod | None = None  # the survey's latest period, pooled, if a survey was imported
    prices: str = SAMPLE
    sample: Benchmark | None = None

    @classmethod
    def apart(cls, corridors: tuple[CorridorFigures, ...], survey: GlobalPeriod | None = None) -> Benchmark:
        """The surveyed corridors' figures, or the sample ones' when none is surveyed: the two are never pooled."""
        surveyed = tuple(f for f in corridors if f.surveyed is not None)
        sample = tuple(f for f in corridors if f.surveyed is None)
        if not surveyed:
            return cls(sample, survey)
        return cls(surveyed, survey, SURVEYED, cls(sample))

    @property
    def corridors(self) -> tuple[CorridorFigures, ...]:
        """The corridors measured: those with a mean true cost."""
        return tuple(f for f in self.active if f.avg_cost is not None)

    @property
    def count(self) -> int:
        return len(self.corridors)

    @property
    def avg_cost(self) -> float | None:
        return _mean(f.avg_cost for f in self.active)

    @property
    def weighted_avg_cost(self) -> float | None:
        weighed = [
            (f.avg_cost, f.corridor.annual_flow_bn)
            for f in self.active
            if f.avg_cost is not None and f.corridor.annual_flow_bn
        ]
        total = sum(flow for _, flow in weighed)
        return sum(cost * flow for cost, flow in weighed) / total if total else None

    @property
    def smart_avg_cost(self) -> float | None:
        return _mean(f.smart_cost for f in self.active)

    @property
    def corridors_meeting_target(self) -> int:
        return sum(bool(f.sdg_target_met) for f in self.corridors)

    @property
    def corridors_with_offer_over_5_pct(self) -> int:
        return sum(f.offers_over_5_pct > 0 for f in self.corridors)

    # the first by id on a tie
    @property
    def cheapest(self) -> CorridorFigures | None:
        return min(self.corridors, key=lambda f: fmean(f.costs), default=None)

    @property
    def costliest(self) -> CorridorFigures | None:
        return max(self.corridors, key=lambda f: fmean(f.costs), default=None)


def _mean(values: Iterable[float | None]) -> float | None:
    known = [value for value in values if value is not None]
    return fmean(known) if known else None
