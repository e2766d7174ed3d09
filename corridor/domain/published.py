"""The World Bank's own published figures: each corridor's average total cost by period (`ATCR.CORR`), and the money
sent between countries in a year (the KNOMAD bilateral remittance matrix). Unrounded: rounding is the schemas' job."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from statistics import fmean
from types import MappingProxyType
from typing import ClassVar

from corridor.domain.model import FLOWS_SOURCE, Dataset

PUBLISHED_SOURCE = "World Bank, Remittance Prices Worldwide (Corridors), DataBank series ATCR.CORR"
COMPUTED_SOURCE = "computed from the imported survey rows (World Bank, Remittance Prices Worldwide)"


@dataclass(frozen=True, slots=True)
class PublishedPeriod:
    """A period's simple mean of the corridors' published averages: not the World Bank's, which pools services."""

    period: str
    mean_of_corridors: float
    corridors: int
    source: ClassVar[str] = PUBLISHED_SOURCE


@dataclass(frozen=True, eq=False)
class PublishedCosts:
    """Each corridor's published averages, oldest first (`USA-MEX` → ((`2011Q1`, 5.006…), …)), and countries' names."""

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


@dataclass(frozen=True, eq=False)
class Flows:
    """Each country pair's money sent in the latest year imported, US$ millions (`USA-MEX` → 52595.3)."""

    version: int
    year: int
    by_pair: Mapping[str, float]
    source: str = FLOWS_SOURCE

    @classmethod
    def build(cls, version: int, year: int, rows: Iterable[tuple[str, str, float]]) -> Flows:
        return cls(version, year, MappingProxyType({f"{src}-{dst}": amount for src, dst, amount in rows}))


def with_flows(dataset: Dataset, flows: Flows | None) -> Dataset:
    """Each corridor's annual flow from the matrix where it has one; the data file's elsewhere."""
    if flows is None:
        return dataset
    corridors = tuple(
        dataclasses.replace(c, annual_flow_bn=flows.by_pair[c.countries] / 1000, flow_year=flows.year)
        if c.countries in flows.by_pair
        else c
        for c in dataset.corridors
    )
    return dataclasses.replace(dataset, corridors=corridors)
