"""Live interbank rates laid over the data file's: precedence, re-basing, provenance, consumer margins."""

from __future__ import annotations

import dataclasses
import datetime as dt
from dataclasses import dataclass
from typing import Iterable, Mapping

from corridor.domain.model import Dataset, Rates, RateSource, with_base_source


@dataclass(frozen=True, slots=True)
class FeedRates:
    """One feed's rates: units of each currency per one `base`, each of its own day."""

    source: str
    base: str
    rates: Mapping[str, float]
    dates: Mapping[str, dt.date]

    @property
    def date(self) -> dt.date:
        """The newest day among the rates."""
        return max(self.dates.values())


def live_rates(rates: Rates, feeds: Iterable[FeedRates]) -> Rates:
    """The tables with each currency's rate from the first feed (in precedence order) that gives it.

    A currency no feed gives keeps the data file's rate. Each consumer rate keeps its margin over
    the interbank rate as the data file states it.
    """
    interbank, sources = dict(rates.interbank), dict(rates.sources)
    for feed in reversed(list(feeds)):  # the lowest precedence first, so that the highest is applied last
        per_base = {**feed.rates, feed.base: 1.0}
        if rates.base not in per_base:
            continue  # nothing to re-base through
        through = per_base[rates.base]
        for code in interbank:
            if code != rates.base and code in per_base:
                interbank[code] = per_base[code] / through
                days = [feed.dates.get(c) for c in (code, rates.base) if c != feed.base]
                sources[code] = RateSource(feed.source, min(day for day in days if day))
    consumer = {code: rates.consumer[code] * interbank[code] / rates.interbank[code] for code in interbank}
    return Rates(rates.base, interbank, consumer, with_base_source(sources, rates.base))


def with_live_rates(dataset: Dataset, feeds: Iterable[FeedRates]) -> Dataset:
    """The dataset priced at the feeds' rates (see `live_rates`)."""
    return dataclasses.replace(dataset, rates=live_rates(dataset.rates, feeds))


def changed_rates(before: Rates, after: Rates) -> list[tuple[str, float, float, RateSource]]:
    """(code, old, new, new source) of each interbank rate that differs, by code."""
    return [(code, before.interbank[code], after.interbank[code], after.sources[code]) for code in sorted(after.interbank)
            if before.interbank[code] != after.interbank[code] or before.sources[code] != after.sources[code]]
