"""ECB reference-rate history: every business day's euro rates in compact arrays, and series of a pair."""

from __future__ import annotations

import datetime as dt
import math
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Hashable, Iterator, Mapping
from dataclasses import dataclass

from corridor.domain.model import ECB

INTERVALS: dict[str, Callable[[dt.date], Hashable]] = {
    "day": lambda day: day,
    "week": lambda day: day.isocalendar()[:2],  # the ISO year and week
    "month": lambda day: (day.year, day.month),
}
BASE = "EUR"  # the ECB quotes every currency against the euro


class NoHistory(LookupError):
    """The history has no rate for a currency or on a date; the message says which, as the API answers it."""


@dataclass(frozen=True)
class Point:
    date: dt.date
    rate: float


@dataclass(frozen=True)
class Series:
    """A pair's points over a range (or the one in force on a date, start = end = that date)."""

    from_currency: str
    to_currency: str
    interval: str
    start: dt.date
    end: dt.date
    points: list[Point]
    source: str = ECB

    @property
    def pair(self) -> str:
        return f"{self.from_currency}\u2192{self.to_currency}"

    @property
    def count(self) -> int:
        return len(self.points)


@dataclass(frozen=True)
class RateHistory:
    """Business days in ascending order (as date ordinals) and each currency's rate per one `base` on them."""

    days: array  # 'l' ordinals
    rates: Mapping[str, array]  # code → 'd' rates, one per day, NaN where none
    base: str = BASE
    source: str = ECB

    @classmethod
    def from_series(cls, series: Mapping[str, Mapping[dt.date, float]], base: str, source: str) -> RateHistory | None:
        """From code → day → rate per one `base`; None if it holds no day."""
        ordinals = sorted({day.toordinal() for days in series.values() for day in days})
        if not ordinals:
            return None
        index = {ordinal: i for i, ordinal in enumerate(ordinals)}
        rates = {}
        for code, days in sorted(series.items()):
            column = array("d", [math.nan]) * len(ordinals)
            for day, rate in days.items():
                column[index[day.toordinal()]] = rate
            rates[code] = column
        return cls(array("l", ordinals), rates, base, source)

    def with_days(self, days: Mapping[dt.date, Mapping[str, float]]) -> RateHistory:
        """With the days (day → rates per one base) later than its last appended."""
        later = sorted(day for day in days if day > self.last)
        if not later:
            return self
        codes = sorted(set(self.rates) | {code for day in later for code in days[day] if code != self.base})
        rates = {
            code: self.rates.get(code, array("d", [math.nan]) * len(self.days))
            + array("d", (days[day].get(code, math.nan) for day in later))
            for code in codes
        }
        return RateHistory(self.days + array("l", (day.toordinal() for day in later)), rates, self.base, self.source)

    def on_day(self, day: dt.date) -> dict[str, float] | None:
        index = bisect_left(self.days, day.toordinal())
        if index == len(self.days) or self.days[index] != day.toordinal():
            return None
        return {code: column[index] for code, column in self.rates.items() if not math.isnan(column[index])}

    @property
    def first(self) -> dt.date:
        return dt.date.fromordinal(self.days[0])

    @property
    def last(self) -> dt.date:
        return dt.date.fromordinal(self.days[-1])

    @property
    def currencies(self) -> list[str]:
        """Every currency with at least one rate, EUR included, by code."""
        return sorted({self.base, *self.rates})

    def nbytes(self) -> int:
        return sum(a.itemsize * len(a) for a in (self.days, *self.rates.values()))

    def default_range(self, start: dt.date | None, end: dt.date | None) -> tuple[dt.date, dt.date]:
        """`start` and `end` defaulting to the history's last day (or `start`, if later) and a year before it."""
        end = end or max(self.last, start or self.last)
        return start or dt.date.fromordinal(max(1, end.toordinal() - 365)), end  # no earlier than year 1

    def span(self, start: dt.date | None, end: dt.date | None) -> tuple[dt.date, dt.date]:
        """The range with its defaults, cut to the history's days where it overlaps them: one spelling per points."""
        start, end = self.default_range(start, end)
        if start <= self.last and end >= self.first:
            start, end = max(start, self.first), min(end, self.last)
        return start, end

    def series(self, from_code: str, to_code: str, start: dt.date, end: dt.date, interval: str) -> list[Point]:
        """The pair's rate on each business day from `start` to `end`, or the last of each week or month."""
        low, high = bisect_left(self.days, start.toordinal()), bisect_right(self.days, end.toordinal())
        key = INTERVALS[interval]
        # a later day of the same week or month replaces an earlier one
        return list({key(point.date): point for point in self._points(from_code, to_code, low, high)}.values())

    def on(self, from_code: str, to_code: str, day: dt.date) -> Point:
        """The rate in force on `day`: the pair's rate on the last business day on or before it."""
        index = bisect_right(self.days, day.toordinal()) - 1
        if index < 0:
            raise NoHistory(
                f"The {self.source} history begins on {self.first.isoformat()}; "
                f"no rate was in force on {day.isoformat()}.",
            )
        points = list(self._points(from_code, to_code, index, index + 1))
        if not points:
            business_day = dt.date.fromordinal(self.days[index]).isoformat()
            publisher = "The ECB" if self.source == ECB else self.source
            raise NoHistory(
                f"{publisher} published no {from_code} and {to_code} rates on "
                f"{business_day}, the business day in force on {day.isoformat()}.",
            )
        return points[0]

    def _points(self, from_code: str, to_code: str, low: int, high: int) -> Iterator[Point]:
        # EUR = 1; a day on which either currency has no rate (NaN) is skipped
        days = self.days[low:high]
        columns = self._column(from_code, low, high), self._column(to_code, low, high)
        for ordinal, from_rate, to_rate in zip(days, *columns, strict=True):
            rate = to_rate / from_rate
            if not math.isnan(rate):
                yield Point(dt.date.fromordinal(ordinal), rate)

    def _column(self, code: str, low: int, high: int) -> array:
        return array("d", [1.0]) * (high - low) if code == self.base else self.rates[code][low:high]


@dataclass(frozen=True)
class Histories:
    """The ECB's history, and Frankfurter's daily series for pairs with a currency the ECB does not publish."""

    ecb: RateHistory
    frankfurter: RateHistory | None = None

    @property
    def currencies(self) -> set[str]:
        return set(self.ecb.currencies) | set(self.frankfurter.currencies if self.frankfurter else ())

    def for_pair(self, from_code: str, to_code: str) -> RateHistory:
        for history in (self.ecb, self.frankfurter):
            if history is not None and {from_code, to_code} <= set(history.currencies):
                return history
        missing = to_code if from_code in self.ecb.currencies else from_code
        raise NoHistory(
            f"No rate history for {missing}: the ECB does not publish it, and no Frankfurter series of it is held."
        )

    def span(self, from_code: str, to_code: str, start: dt.date | None, end: dt.date | None) -> tuple[dt.date, dt.date]:
        try:
            history = self.for_pair(from_code, to_code)
        except NoHistory:
            history = self.ecb  # the request is refused later, whatever the range
        return history.span(start, end)
