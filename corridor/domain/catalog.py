"""Everything servable from one dataset, priced once at the reference amount and looked up by key or id."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from functools import cached_property

from corridor.domain.benchmark import Benchmark
from corridor.domain.costs import (
    CorridorCosts,
    CostCorridor,
    CostHistory,
    GlobalPeriod,
    corridor_periods,
    global_periods,
    in_range,
)
from corridor.domain.countries import country_currency, country_name, named_currencies
from corridor.domain.history import Histories, Series
from corridor.domain.model import Corridor, Dataset, RateSource, priced_from
from corridor.domain.pricing import CorridorFigures, MidRate, corridor_figures, mid_rate
from corridor.domain.published import Flows, PublishedCosts


class NotServed(LookupError):
    """A client named something this data does not serve: `value`."""

    def __init__(self, value: str) -> None:
        super().__init__(value)
        self.value = value


class UnknownCorridor(NotServed): ...


class AmbiguousCorridor(LookupError):
    """Several active corridors, `corridors`, have the currency pair `value`."""

    def __init__(self, value: str, corridors: list[Corridor]) -> None:
        super().__init__(value)
        self.value, self.corridors = value, corridors


class NoSurveyData(LookupError):
    """Neither survey rows nor published averages have `corridor` (a served one), or there are none at all (None)."""

    def __init__(self, corridor: Corridor | None) -> None:
        super().__init__(corridor.countries if corridor else "")
        self.corridor = corridor


class NoOffers(NotServed):
    """A country pair with cost figures and no offers: `costs` are its figures."""

    def __init__(self, costs: CorridorCosts) -> None:
        super().__init__(costs.key)
        self.costs = costs


class UnknownCorridorId(NotServed): ...


class UnknownCurrency(NotServed): ...


class Catalog:
    """Active corridors priced at the reference amount (inactive ones are served nowhere)."""

    def __init__(
        self,
        dataset: Dataset,
        history: Histories,
        costs: CostHistory | None = None,  # the survey's averages by period, if a survey was imported
        published: PublishedCosts | None = None,  # the World Bank's published averages, if imported
        flows: Flows | None = None,  # the remittance matrix's latest year, if imported
    ) -> None:
        self.dataset, self.history, self.costs, self.published, self.flows = dataset, history, costs, published, flows
        self.corridors = tuple(corridor_figures(dataset, c) for c in dataset.active_corridors)  # by id
        # by currency pair, `FROM_TO`: several countries may share one
        self.by_key: dict[str, tuple[CorridorFigures, ...]] = {}
        for f in self.corridors:
            self.by_key[f.corridor.key] = (*self.by_key.get(f.corridor.key, ()), f)
        self.by_countries = {f.corridor.countries: f for f in self.corridors}  # by country pair, `SRC-DST`
        self.by_id = {str(f.corridor.id): f for f in self.corridors}  # by the id as a path writes it
        self.currencies = named_currencies(dataset.rates.sources)

    def corridor(self, key: str) -> CorridorFigures:
        """An active corridor by its countries, `SRC-DST`, or by its currencies, `FROM_TO`, if no other has them."""
        if "-" in key:
            try:
                return self.by_countries[key]
            except KeyError:
                raise NoOffers(self.corridor_costs(key)) from None
        found = self.by_key.get(key, ())
        if len(found) > 1:
            raise AmbiguousCorridor(key, [f.corridor for f in found])
        if not found:
            raise UnknownCorridor(key)
        return found[0]

    def corridor_by_id(self, corridor_id: str) -> CorridorFigures:
        try:
            return self.by_id[corridor_id]
        except KeyError:
            raise UnknownCorridorId(corridor_id) from None

    def quotes(
        self,
        corridor: str,
        amount: float | None = None,
        payout: str | None = None,
        sort: str = "cost",
        receive_amount: float | None = None,
    ) -> CorridorFigures:
        figures = self.corridor(corridor)
        if amount is None and payout is None and sort == "cost" and receive_amount is None:
            return figures
        return corridor_figures(self.dataset, figures.corridor, amount, payout, sort, receive_amount)

    def corridor_costs(self, corridor: str, start: str | None = None, end: str | None = None) -> CorridorCosts:
        """A served corridor's averages from period `start` to `end`, or any country pair's that either kind knows."""
        served = None
        if "-" not in corridor or corridor in self.by_countries:
            served = self.corridor(corridor).corridor
            corridor = served.countries
        computed = self.costs.corridors.get(corridor, ()) if self.costs else ()
        published = self.published.corridors.get(corridor, ()) if self.published else ()
        if not computed and not published:
            if served is None:
                raise UnknownCorridor(corridor)
            raise NoSurveyData(served)
        periods = in_range(corridor_periods(computed, published), start, end)
        if served is not None:
            return CorridorCosts(
                corridor, served.source, served.destination, served.from_currency, served.to_currency, periods
            )
        src, dst = corridor.split("-")
        # the export's own names only for a code CLDR does not know (KSV, ANT)
        exported = self.published.names.get(corridor, (src, dst)) if self.published else (src, dst)
        names = country_name(src, exported[0]), country_name(dst, exported[1])
        currencies = country_currency(src, self.dataset.as_of), country_currency(dst, self.dataset.as_of)
        return CorridorCosts(corridor, *names, *currencies, periods)

    @cached_property
    def cost_corridors(self) -> tuple[CostCorridor, ...]:
        """Every country pair with any cost figure, with its money sent: a served corridor's, else the matrix's."""
        pairs = set(self.costs.corridors if self.costs else ())
        pairs |= set(self.published.corridors if self.published else ())
        found = []
        for pair in sorted(pairs):
            flow: tuple = (None, None, None)
            if pair in self.by_countries:
                c = self.by_countries[pair].corridor
                flow = (c.annual_flow_bn, c.flow_year, c.flow_source)
            elif self.flows is not None and pair in self.flows.by_pair:
                flow = (self.flows.by_pair[pair] / 1000, self.flows.year, self.flows.source)
            found.append(CostCorridor(self.corridor_costs(pair), *flow))
        return tuple(found)

    def cost_corridors_of(
        self, from_country: str | None = None, to_country: str | None = None
    ) -> tuple[CostCorridor, ...]:
        return tuple(
            c
            for c in self.cost_corridors
            if (from_country is None or c.costs.key[:3] == from_country)
            and (to_country is None or c.costs.key[4:] == to_country)
        )

    def global_costs(self, start: str | None = None, end: str | None = None) -> tuple[GlobalPeriod, ...]:
        computed = self.costs.periods if self.costs else ()
        published = self.published.periods if self.published else ()
        if not computed and not published:
            raise NoSurveyData(None)
        return in_range(global_periods(computed, published), start, end)

    @property
    def benchmark(self) -> Benchmark:
        latest = self.costs.periods[-1] if self.costs and self.costs.periods else None
        return Benchmark.apart(self.corridors, GlobalPeriod(latest.period, latest) if latest else None)

    def mid_rate(self, from_currency: str, to_currency: str) -> MidRate:
        self._check_known(from_currency, to_currency)
        return mid_rate(self.dataset, from_currency, to_currency)

    def rate_sources(self, from_currency: str, to_currency: str) -> list[tuple[str, RateSource]]:
        """Each currency a pair's mid-market rate is priced from, with its rate's source and day."""
        self._check_known(from_currency, to_currency)
        rates = self.dataset.rates
        return [(code, rates.sources[code]) for code in priced_from(rates, from_currency, to_currency)]

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
        """A pair's rates from `start` to `end` (default: the history's last year), or the one in force on `date`."""
        # a currency is known to the rate tables or to the history (RUB, or CYP before the euro)
        self._check_known(from_currency, to_currency, also=self.history.currencies)
        history = self.history.for_pair(from_currency, to_currency)
        if date is not None:
            start = end = date
            points = [history.on(from_currency, to_currency, date)]
        else:
            start, end = history.span(start, end)
            points = history.series(from_currency, to_currency, start, end, interval)
        return Series(from_currency, to_currency, interval, start, end, points, history.source)

    def _check_known(self, *codes: str, also: Iterable[str] = ()) -> None:
        for code in codes:
            if code not in self.dataset.rates.interbank and code not in also:
                raise UnknownCurrency(code)
