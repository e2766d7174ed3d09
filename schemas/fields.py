"""Custom marshmallow fields shared by the load and dump schemas."""

from __future__ import annotations

import datetime as dt
import math
import re
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, Callable, Iterable

from marshmallow import fields

from corridor.encoding import json_text

MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


class StrictFloat(fields.Float):
    """A JSON number only: no strings, no booleans, no NaN or infinity."""

    default_error_messages = {"invalid": "Must be a finite JSON number."}

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(allow_nan=False, **kwargs)

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise self.make_error("invalid")
        return super()._deserialize(value, attr, data, **kwargs)


class StrictBool(fields.Boolean):
    """A JSON `true` or `false` only: no 1, no "yes"."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> bool:
        if value is not True and value is not False:
            raise self.make_error("invalid")
        return value


class IsoDate(fields.Date):
    """A date written exactly `YYYY-MM-DD`."""

    default_error_messages = {"invalid": "Must be a date written YYYY-MM-DD."}
    _PATTERN = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> dt.date:
        if not isinstance(value, str) or not self._PATTERN.fullmatch(value):
            raise self.make_error("invalid")
        return super()._deserialize(value, attr, data, **kwargs)


class PatternString(fields.String):
    """A string whose whole value matches `pattern`; the pattern is also documented in OpenAPI."""

    pattern = ""
    upper = False

    def __init__(self, **kwargs: Any) -> None:
        kwargs["metadata"] = {"pattern": f"^{self.pattern}$", **kwargs.get("metadata", {})}
        super().__init__(**kwargs)
        self._regex = re.compile(self.pattern)

    def deserialize(self, value: Any, attr: str | None = None, data: Any = None, **kwargs: Any) -> Any:
        """A string that matches, straight to its value (every query parameter of a one-off quote);
        anything else through marshmallow's checks and errors, which give the same value."""
        if type(value) is str and not self.validators and self._regex.fullmatch(value):
            return self._value(value)
        return super().deserialize(value, attr, data, **kwargs)

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> Any:
        text = super()._deserialize(value, attr, data, **kwargs)
        if not self._regex.fullmatch(text):
            raise self.make_error("invalid")
        return self._value(text)

    def _value(self, text: str) -> Any:
        """What a matching text loads as."""
        return text.upper() if self.upper else text


class CurrencyCode(PatternString):
    """A currency code in a query: three ASCII letters in any case, upper-cased."""

    default_error_messages = {"invalid": "must be a three-letter currency code such as USD."}
    pattern = "[A-Za-z]{3}"
    upper = True


class Amount(PatternString):
    """A send amount: a plain decimal above 0 and at most 1,000,000,000 with at most 2 decimals.

    The pattern alone encodes the whole rule, so the OpenAPI document states it exactly.
    """

    default_error_messages = {
        "invalid": "must be a plain decimal above 0 and at most 1000000000, with at most 2 decimals, such as 250.50."
    }
    pattern = r"(?:0\.(?:0[1-9]|[1-9][0-9]?)|[1-9][0-9]{0,8}(?:\.[0-9]{1,2})?|1000000000(?:\.00?)?)"

    def _value(self, text: str) -> float:
        return float(text)


class CorridorKey(PatternString):
    """A corridor key in a query: `FROM_TO` in any case, upper-cased."""

    default_error_messages = {"invalid": "must be a corridor key such as USD_MXN."}
    pattern = "[A-Za-z]{3}_[A-Za-z]{3}"
    upper = True


def _decimal(value: float) -> Decimal:
    # 15 significant digits (all a double holds) first: binary noise (3.3349999999999995 for the
    # 3.335 of 100 × 6.67 / 200) must not decide a tie
    return Decimal(f"{value:.15g}")


_NEAR_TIE = 1e-12  # relative distance to a tie below which the Decimal path decides


def round_half_up(value: float, places: int) -> float:
    """`value` to `places` decimals, ties away from zero, as on paper: 3.335 → 3.34."""
    scaled = value * 10**places
    # `_decimal` moves a value by at most 5e-15 of itself, so only a value this close to a tie
    # (with 200× to spare) can round differently from the double: everything else takes round()
    if abs(scaled - math.floor(scaled) - 0.5) > _NEAR_TIE * max(1.0, abs(scaled)):
        return round(value, places)
    return float(_decimal(value).quantize(Decimal(1).scaleb(-places), ROUND_HALF_UP))


_KNOWN_LIMIT = 4096  # texts a writer remembers by value in units of the last place


def fixed_point_writer(places: int, shape: str, serialize: Callable, *, remember: bool = False) -> Callable[[Iterable[Any]], list[str]]:
    """A writer of the JSON text of each value a field dumps by rounding it half-up to `places`
    decimals with `serialize` (its `_serialize`): `shape`, a %-format with one `%.{places}f`,
    applied to the value, less trailing zeros when `shape` is that alone (a JSON number), where
    that is what `serialize` gives; `remember` keeps texts by rounded value, for figures that take
    few (a cost in %).

    That holds for a float from 10**-places on, not near a tie: there round_half_up is round(), and
    `%f` rounds the same binary value to the same decimal, which a double then holds exactly
    (under 15 digits: from 5e11 × 10**-places, every value counts as near a tie), so repr writes
    it less trailing zeros, and the text depends on the nearest whole number of units alone.
    Half the cost of round() and repr; a one-off quote writes ~13 values.
    """
    scale, near, number = 10.0**places, _NEAR_TIE, shape == f"%.{places}f"
    known: dict[int, str] = {}

    def plain(values: Iterable[Any]) -> list[str]:
        written = []
        for value in values:
            if type(value) is float:
                scaled = value * scale
                # round_half_up's own test for scaled ≥ 1, where `%` is exact as floor's difference is
                if scaled >= 1.0 and abs(scaled % 1.0 - 0.5) > near * scaled:
                    text = shape % value
                    if text[-1] == "0" and number:
                        text = text.rstrip("0")  # repr's shortest form: 2.50 → 2.5, 2.00 → 2.0
                        if text[-1] == ".":
                            text += "0"
                    written.append(text)
                    continue
            written.append(json_text(serialize(value, None, None)))
        return written

    def remembered(values: Iterable[Any]) -> list[str]:
        written = []
        for value in values:
            if type(value) is float:
                scaled = value * scale
                if scaled >= 1.0 and abs(scaled % 1.0 - 0.5) > near * scaled:  # as in `plain`
                    units = int(scaled + 0.5)
                    text = known.get(units)
                    if text is None:
                        if len(known) >= _KNOWN_LIMIT:
                            known.clear()
                        text = known[units] = plain((value,))[0]
                    written.append(text)
                    continue
            written.append(json_text(serialize(value, None, None)))
        return written

    return remembered if remember else plain


def round_significant(value: float, digits: int) -> Decimal:
    """`value` to `digits` significant figures, ties away from zero."""
    exact = _decimal(value)
    if not exact:
        return exact
    return exact.quantize(Decimal(1).scaleb(exact.adjusted() - digits + 1), ROUND_HALF_UP)


class Rounded(fields.Float):
    """A number rounded half-up to `places` decimals when dumped (percentages, fees)."""

    def __init__(self, places: int = 2, **kwargs: Any) -> None:
        self.places = places
        super().__init__(**kwargs)
        self.json_texts = self.json_writer()

    def _serialize(self, value: Any, attr: Any, obj: Any, **kwargs: Any) -> float | None:
        return None if value is None else round_half_up(value, self.places)

    def json_writer(self, *, remember: bool = False) -> Callable[[Iterable[Any]], list[str]]:
        """A function giving the JSON text of each value as dumped (`json_texts` is one)."""
        return fixed_point_writer(self.places, f"%.{self.places}f", self._serialize, remember=remember)


class SignificantFigures(fields.Float):
    """A rate rounded half-up to `digits` significant figures when dumped."""

    def __init__(self, digits: int = 6, **kwargs: Any) -> None:
        self.digits = digits
        super().__init__(**kwargs)

    def _serialize(self, value: Any, attr: Any, obj: Any, **kwargs: Any) -> float | None:
        return None if value is None else float(round_significant(value, self.digits))


def display_date(day: dt.date) -> str:
    """`Nov 20, 2026`, in English whatever the locale."""
    return f"{MONTHS[day.month - 1]} {day.day}, {day.year}"


class DisplayDate(fields.String):
    """A date dumped as `Mon D, YYYY`."""

    def _serialize(self, value: Any, attr: Any, obj: Any, **kwargs: Any) -> str | None:
        return None if value is None else display_date(value)


class PercentText(PatternString):
    """A percentage dumped as text with two decimals: `4.87%`."""

    pattern = "[0-9]+\\.[0-9]{2}%"

    def _serialize(self, value: Any, attr: Any, obj: Any, **kwargs: Any) -> str | None:
        return None if value is None else f"{round_half_up(value, 2):.2f}%"

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.json_texts = self.json_writer()

    def json_writer(self, *, remember: bool = False) -> Callable[[Iterable[Any]], list[str]]:
        """A function giving the JSON text of each value as dumped (`json_texts` is one)."""
        return fixed_point_writer(2, '"%.2f%%"', self._serialize, remember=remember)


class BillionsText(PatternString):
    """USD billions dumped as text with one decimal: `$63.3B`."""

    pattern = "\\$[0-9]+\\.[0-9]B"

    def _serialize(self, value: Any, attr: Any, obj: Any, **kwargs: Any) -> str | None:
        return None if value is None else f"${round_half_up(value, 1):.1f}B"
