"""The World Bank's own published figures: each corridor's average total cost by period (`ATCR.CORR`), and the money
sent between countries in a year (the KNOMAD bilateral remittance matrix). Unrounded: rounding is the schemas' job."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from statistics import fmean
from types import MappingProxyType

PUBLISHED_SOURCE = "World Bank, Remittance Prices Worldwide (Corridors), DataBank series ATCR.CORR"
COMPUTED_SOURCE = "computed from the imported survey rows (World Bank, Remittance Prices Worldwide)"
FLOWS_SOURCE = "KNOMAD/World Bank Bilateral Remittance Matrix"


@dataclass(frozen=True, slots=True)
class PublishedPeriod:
    """The simple mean of the corridors' published averages of one period, and how many corridors it is over: not
    the World Bank's own global average, which pools services."""

    period: str
    mean_of_corridors: float
    corridors: int


@dataclass(frozen=True, eq=False)
class PublishedCosts:
    """Each corridor's published averages by period (`USA-MEX` → ((`2011Q1`, 5.006…), …), oldest first), its
    countries' names as the export gives them, and each period's mean over corridors."""

    version: int
    corridors: Mapping[str, tuple[tuple[str, float], ...]]
    names: Mapping[str, tuple[str, str]]
    periods: tuple[PublishedPeriod, ...]

    @classmethod
    def build(cls, version: int, rows: Iterable[tuple[str, str, str, float, str, str]]) -> PublishedCosts:
        """From (source, destination, period, cost, source name, destination name) rows in any order."""
        corridors: dict[str, list[tuple[str, float]]] = {}
        names: dict[str, tuple[str, str]] = {}
        by_period: dict[str, list[float]] = {}
        for src, dst, period, cost, src_name, dst_name in rows:
            pair = f"{src}-{dst}"
            corridors.setdefault(pair, []).append((period, cost))
            names[pair] = (src_name, dst_name)
            by_period.setdefault(period, []).append(cost)
        return cls(
            version,
            MappingProxyType({pair: tuple(sorted(costs)) for pair, costs in sorted(corridors.items())}),
            MappingProxyType(names),
            tuple(PublishedPeriod(period, fmean(costs), len(costs)) for period, costs in sorted(by_period.items())),
        )


@dataclass(frozen=True, slots=True)
class Flow:
    """The money sent in a corridor in a year, in US$ millions, as the matrix estimates it."""

    usd_millions: float
    year: int
    source: str = FLOWS_SOURCE


@dataclass(frozen=True, eq=False)
class Flows:
    """Each country pair's flow in the latest year imported (`USA-MEX` → Flow)."""

    version: int
    year: int
    by_pair: Mapping[str, Flow]

    @classmethod
    def build(cls, version: int, year: int, rows: Iterable[tuple[str, str, float]]) -> Flows:
        return cls(version, year, MappingProxyType({f"{src}-{dst}": Flow(amount, year) for src, dst, amount in rows}))
