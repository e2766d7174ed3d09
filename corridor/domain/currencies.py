"""Currency names from the Unicode CLDR via Babel: maintained upstream, not typed in here."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from babel.numbers import get_currency_name, list_currencies


@dataclass(frozen=True, slots=True)
class Currency:
    """A currency code and its English name."""

    code: str
    name: str


def is_known_currency(code: str) -> bool:
    """Whether CLDR knows `code` as an ISO 4217 currency."""
    return code in list_currencies()


def named_currencies(codes: Iterable[str]) -> tuple[Currency, ...]:
    """The codes with their English names, sorted by code."""
    return tuple(Currency(code, get_currency_name(code, locale="en")) for code in sorted(codes))
