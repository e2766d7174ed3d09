"""Everything servable from one dataset, priced once at the reference amount and looked up by key or id."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from corridor.domain.benchmark import Benchmark
from corridor.domain.costs import CorridorCosts, CostHistory, GlobalCosts, in_range
from corridor.domain.currencies import Currency, named_currencies
from corridor.domain.history import Histories, Series
from corridor.domain.model import Corridor, Dataset, RateSource
from corridor.domain.pricing import CorridorFigures, MidRate, corridor_figures, mid_rate


class NotServed(LookupError):
    """A client named something this data does not serve: `value`."""

    def __init__(self, value: str) -> None:
        super().__init__(value)
        self.value = value


class UnknownCorridor(NotServed):
    """No active corridor has this key."""


class AmbiguousCorridor(LookupError):
    """Several active corridors have the currency pair `value`, `FROM_TO`: `corridors` are they."""

    def __init__(self, value: str, corridors: list[Corridor]) -> None:
        super().__init__(value)
        self.value, self.corridors = value, corridors


class NoSurveyData(LookupError):
    """The survey has no observation of this served corridor (`corridor`), or none at all (None)."""

    def __init__(self, corridor: Corridor | None) -> None:
        super().__init__(corridor.countries if corridor else "")
        self.corridor = corridor


class UnknownCorridorId(NotServed):
    """No active corridor has this id."""


class UnknownCurrency(NotServed):
    """The rate tables have no such currency."""


@dataclass(frozen=True, eq=False)
class Catalog:
    """Active corridors priced at the reference amount (inactive ones are served nowhere)."""

    dataset: Dataset
    by_key: Mapping[str, tuple[CorridorFigures, ...]]  # by currency pair, `FROM_TO`: several countries may share one
    by_countries: Mapping[str, CorridorFigures]  # by country pair, `SRC-DST`
    by_id: Mapping[str, CorridorFigures]  # by the id as a path writes it
    currencies: tuple[Currency, ...]
    history: Histories
    costs: CostHistory | None = None  # the survey's averages by period, if a survey was imported

    @classmethod
    def build(cls, dataset: Dataset, history: Histories, costs: CostHistory | None = None) -> Catalog:
        """Price every active corridor once."""
        figures = [corridor_figures(dataset, c) for c in dataset.active_corridors]
        by_key: dict[str, tuple[CorridorFigures, ...]] = {}
        for f in figures:
            by_key[f.corridor.key] = (*by_key.get(f.corridor.key, ()), f)
        return cls(
            dataset,
            MappingProxyType(by_key),
            MappingProxyType({f.corridor.countries: f for f in figures}),
            MappingProxyType({str(f.corridor.id): f for f in figures}),
            named_currencies(dataset.rates.sources),
            history,
            costs,
        )

    @property
    def corridors(self) -> tuple[CorridorFigures, ...]:
        """Active corridors by id."""
        return tuple(self.by_id.values())

    def corridor(self, key: str) -> CorridorFigures:
        """An active corridor by its countries, `SRC-DST`, or by its currencies, `FROM_TO`, if no other has them."""
        if "-" in key:
            try:
                return self.by_countries[key]
            except KeyError:
                raise UnknownCorridor(key) from None
        found = self.by_key.get(key, ())
        if len(found) > 1:
            raise AmbiguousCorridor(key, [f.corridor for f in found])
        if not found:
            raise UnknownCorridor(key)
        return found[0]

    def corridor_by_id(self, corridor_id: str) -> CorridorFigures:
        """An active corridor by its id in decimal digits."""
        try:
            return self.by_id[corridor_id]
        except KeyError:
            raise UnknownCorridorId(corridor_id) from None

    def quotes(self, corridor: str, amount: float | None = None, payout: str | None = None, sort: str = "cost",
               receive_amount: float | None = None) -> CorridorFigures:
        """An active corridor's offers with `payout` (all if None) at `amount` (None: the reference) or delivering
        `receive_amount`, sorted."""
        figures = self.corridor(corridor)
        if amount is None and payout is None and sort == "cost" and receive_amount is None:
            return figures
        return corridor_figures(self.dataset, figures.corridor, amount, payout, sort, receive_amount)

    def corridor_costs(self, corridor: str, start: str | None = None, end: str | None = None) -> CorridorCosts:
        """An active corridor's survey averages from period `start` to `end`; NoSurveyData if the survey has none."""
        served = self.corridor(corridor).corridor
        periods = self.costs.corridors.get(served.countries) if self.costs else None
        if not periods:
            raise NoSurveyData(served)
        return CorridorCosts(served, in_range(periods, start, end))

    def global_costs(self, start: str | None = None, end: str | None = None) -> tuple[GlobalCosts, ...]:
        """The survey's pooled figures from period `start` to `end`; NoSurveyData if no survey was imported."""
        if not self.costs or not self.costs.periods:
            raise NoSurveyData(None)
        return in_range(self.costs.periods, start, end)

    @property
    def benchmark(self) -> Benchmark:
        """The SDG 10.c figures over the active corridors at the reference amount."""
        return Benchmark.apart(self.corridors, self.costs.periods[-1] if self.costs and self.costs.periods else None)

    def mid_rate(self, from_currency: str, to_currency: str) -> MidRate:
        """Reference rates for a pair of currencies in the rate tables."""
        self._check_known(from_currency, to_currency)
        return mid_rate(self.dataset, from_currency, to_currency)

    def rate_sources(self, from_currency: str, to_currency: str) -> list[tuple[str, RateSource]]:
        """Each currency whose rate a pair's mid-market rate is priced from, with that rate's source and day; the
        base's 1 is named only when both are the base."""
        self._check_known(from_currency, to_currency)
        rates = self.dataset.rates
        codes = [code for code in dict.fromkeys((from_currency, to_currency)) if code != rates.base] or [rates.base]
        return [(code, rates.sources[code]) for code in codes]

    def rate_history(
        self,
        from_currency: str,
        to_currency: str,
        *,
        interval: str = "day",
        start: dt.date | None = None,
        end: dt.date | None = None,
        date: dt.date | None = None,
    ) -> Series:
        """A pair's rates from `start` to `end` (defaults: the history's last year), or in force on `date`."""
        # a currency is known to the rate tables or to the history (RUB, or CYP before the euro)
        known = set(self.dataset.rates.interbank) | set(self.history.currencies)
        for code in (from_currency, to_currency):
            if code not in known:
                raise UnknownCurrency(code)
        history = self.history.for_pair(from_currency, to_currency)
        if date is not None:
            return Series(
                from_currency,
                to_currency,
                interval,
                date,
                date,
                [history.on(from_currency, to_currency, date)],
                history.source,
            )
        start, end = history.span(start, end)
        return Series(
            from_currency,
            to_currency,
            interval,
            start,
            end,
            history.series(from_currency, to_currency, start, end, interval),
            history.source,
        )

    def _check_known(self, *codes: str) -> None:
        for code in codes:
            if code not in self.dataset.rates.interbank:
                raise UnknownCurrency(code)
