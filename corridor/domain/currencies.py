"""Currency names from the Unicode CLDR via Babel: maintained upstream, not typed in here."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass

from babel.numbers import get_currency_name, list_currencies

from corridor.domain.model import RateSource


@dataclass(frozen=True, slots=True)
class Currency:
    code: str
    name: str
    source: str
    date: dt.date


def is_known_currency(code: str) -> bool:
    return code in list_currencies()


def named_currencies(sources: Mapping[str, RateSource]) -> tuple[Currency, ...]:
    return tuple(
        Currency(code, get_currency_name(code, locale="en"), sources[code].source, sources[code].date)
        for code in sorted(sources)
    )
