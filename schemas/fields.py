"""Custom marshmallow fields shared by the load and dump schemas."""

from __future__ import annotations

import base64
import datetime as dt
import re
from collections.abc import Callable
from functools import partial
from typing import Any

from marshmallow import fields, validate

from corridor.domain.rounding import round_half_up, shown

MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


class StrictFloat(fields.Float):
    """A JSON number only: no strings, no booleans, no NaN or infinity."""

    default_error_messages = {"invalid": "Must be a finite JSON number."}

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


class PageSize(fields.Integer):
    """A whole number in a query written as the service writes it: ASCII digits, no leading zero; no sign, space,
    `_` or digits of other scripts, which int() takes."""

    _DIGITS = re.compile("[1-9][0-9]*")

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> int:
        if not isinstance(value, str) or not self._DIGITS.fullmatch(value):
            raise self.make_error("invalid")
        return super()._deserialize(value, attr, data, **kwargs)


class PatternString(fields.String):
    """A string whose whole value matches `pattern` (documented in OpenAPI), loaded as `loads` makes it."""

    pattern = ""
    loads: Callable[[str], Any] = str

    def __init__(self, **kwargs: Any) -> None:
        kwargs["metadata"] = {"pattern": f"^{self.pattern}$", **kwargs.get("metadata", {})}
        super().__init__(**kwargs)
        self._regex = re.compile(self.pattern)

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> Any:
        text = super()._deserialize(value, attr, data, **kwargs)
        if not self._regex.fullmatch(text):
            raise self.make_error("invalid")
        try:
            return self.loads(text)
        except ValueError:  # well formed, yet not a value (a 30 February)
            raise self.make_error("invalid") from None


class IsoDate(PatternString):
    """A real date written exactly `YYYY-MM-DD`."""

    default_error_messages = {"invalid": "Must be a date written YYYY-MM-DD."}
    pattern = "[0-9]{4}-[0-9]{2}-[0-9]{2}"
    loads = staticmethod(dt.date.fromisoformat)


class QueryDate(IsoDate):
    """A date in a query, `YYYY-MM-DD`, a real one."""

    default_error_messages = {"invalid": "must be a real date written YYYY-MM-DD, such as 2025-10-30."}

    def __init__(self, **kwargs: Any) -> None:
        kwargs["metadata"] = {"format": "date", **kwargs.get("metadata", {})}
        super().__init__(**kwargs)


class Amount(PatternString):
    """A send amount: a plain decimal above 0 and at most 1,000,000,000 with at most 2 decimals."""

    # the pattern alone encodes the whole rule, so the OpenAPI document states it exactly

    default_error_messages = {
        "invalid": "must be a plain decimal above 0 and at most 1000000000, with at most 2 decimals, such as 250.50."
    }
    pattern = r"(?:0\.(?:0[1-9]|[1-9][0-9]?)|[1-9][0-9]{0,8}(?:\.[0-9]{1,2})?|1000000000(?:\.00?)?)"
    loads = float


class ReceiveAmount(Amount):
    """An amount to deliver: a plain decimal above 0 and at most 1,000,000,000,000 with at most 2 decimals."""

    default_error_messages = {
        "invalid": "must be a plain decimal above 0 and at most 1000000000000, with at most 2 decimals, such as 5000."
    }
    pattern = r"(?:0\.(?:0[1-9]|[1-9][0-9]?)|[1-9][0-9]{0,11}(?:\.[0-9]{1,2})?|1000000000000(?:\.00?)?)"


def any_case(pattern: str, invalid: str, **kwargs: Any) -> fields.String:
    """A code in a query in any case, whose whole value matches `pattern` (documented in OpenAPI): QueryParser
    upper-cases it once loaded."""
    kwargs["metadata"] = {"pattern": f"^{pattern}$", **kwargs.get("metadata", {}), "upper_cased": True}
    return fields.String(validate=validate.Regexp(f"(?:{pattern})\\Z", error=invalid), **kwargs)


currency_code = partial(any_case, "[A-Za-z]{3}", "must be a three-letter currency code such as USD.")
# its countries `SRC-DST`, or its currencies `FROM_TO`
corridor_key = partial(
    any_case,
    "[A-Za-z]{3}[-_][A-Za-z]{3}",
    "must be a corridor's countries such as KEN-TZA, or its currencies such as USD_MXN.",
)
# ISO 3166-1 alpha-3, or the World Bank's own (KSV)
country_code = partial(any_case, "[A-Za-z]{3}", "must be a country's three-letter code, such as USA.")
survey_period = partial(any_case, "[0-9]{4}[Qq][1-4]", "must be a survey period written YYYYQn, such as 2025Q3.")


CURSOR_PREFIX = "after:"


def cursor_for(last_id: int) -> str:
    """The opaque cursor of the page after the corridor with id `last_id`."""
    return base64.urlsafe_b64encode(f"{CURSOR_PREFIX}{last_id}".encode()).decode().rstrip("=")


class Cursor(fields.Field[int]):
    """A page's cursor, as the previous page gave it: loaded as the corridor id the page starts after."""

    default_error_messages = {
        "invalid": "is not a cursor this service gave; take it from the previous page's "
        "Link header or next, or start again without it."
    }

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> int:
        if not isinstance(value, str):
            raise self.make_error("invalid")
        try:
            decoded = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4)).decode("ascii")
        except (ValueError, UnicodeDecodeError):
            raise self.make_error("invalid") from None
        position = decoded.removeprefix(CURSOR_PREFIX)
        if decoded == position or not position.isdigit() or len(position) > 18 or cursor_for(int(position)) != value:
            raise self.make_error("invalid")
        return int(position)


class Rounded(fields.Float):
    """A number rounded half-up when dumped: to `places` decimals (percentages, fees), or to `digits` significant
    figures (rates); written with `text` if a subclass gives one (PercentText)."""

    text: str | None = None

    def __init__(self, places: int = 2, *, digits: int | None = None, **kwargs: Any) -> None:
        self.places, self.digits = places, digits
        super().__init__(**kwargs)

    def _serialize(self, value: Any, attr: Any, obj: Any, **kwargs: Any) -> float | str | None:
        return shown((value,), self.places, self.digits, self.text)[0]


def display_date(day: dt.date) -> str:
    """`Nov 20, 2026`, in English whatever the locale."""
    return f"{MONTHS[day.month - 1]} {day.day}, {day.year}"


class DisplayDate(fields.String):
    """A date dumped as `Mon D, YYYY`."""

    def _serialize(self, value: Any, attr: Any, obj: Any, **kwargs: Any) -> str | None:
        return None if value is None else display_date(value)


class PercentText(Rounded):
    """A percentage dumped as text with two decimals: `4.87%`; documented as a string of that pattern (build_api)."""

    text = "{:.2f}%"
    pattern = "^-?[0-9]+\\.[0-9]{2}%$"  # negative: a promotion's margin below the mid-market rate

    def __init__(self, **kwargs: Any) -> None:
        kwargs["metadata"] = {"pattern": self.pattern, **kwargs.get("metadata", {})}
        super().__init__(2, **kwargs)


class BillionsText(PatternString):
    """USD billions dumped as text with one decimal: `$63.3B`."""

    pattern = "\\$[0-9]+\\.[0-9]B"

    def _serialize(self, value: Any, attr: Any, obj: Any, **kwargs: Any) -> str | None:
        return None if value is None else f"${round_half_up(value, 1):.1f}B"
