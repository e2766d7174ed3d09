"""Countries as the survey writes them (ISO 3166-1 alpha-3), their English names and currencies, and currencies' names,
from the Unicode CLDR via Babel: maintained upstream, not typed in here."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache

from babel import Locale
from babel.core import get_global
from babel.numbers import get_currency_name, get_territory_currencies, list_currencies

from corridor.domain.model import RateSource

# codes ISO 3166 withdrew that CLDR keeps as aliases of a country with a code of its own
_WITHDRAWN = frozenset({"BUR", "DDR", "FXX", "TMP", "YMD", "ZAR"})
# the World Bank's codes where ISO 3166 has none, for their names and currencies
_WORLD_BANK = {"KSV": "XK"}


@dataclass(frozen=True, slots=True)
class Currency:
    code: str
    name: str
    source: str
    date: dt.date


@cache
def _alpha2_of() -> dict[str, str]:
    """alpha-3 → alpha-2: CLDR lists each ISO 3166 alpha-3 code as an alias of its alpha-2 territory."""
    countries = Locale("en").territories.keys() - {"ZZ"}  # ZZ: the unknown region, which ZZZ aliases
    return {
        alias: codes[0]
        for alias, codes in get_global("territory_aliases").items()
        if re.fullmatch("[A-Z]{3}", alias) and len(codes) == 1 and codes[0] in countries and alias not in _WITHDRAWN
    }


@cache
def _alpha3_by_name() -> dict[str, str]:
    alpha3 = {alpha2: alpha3 for alpha3, alpha2 in _alpha2_of().items()}
    return {name.casefold(): alpha3[code] for code, name in Locale("en").territories.items() if code in alpha3}


def country_codes() -> list[str]:
    return sorted(_alpha2_of())


def is_country(code: str) -> bool:
    return code in _alpha2_of()


def country_code(name: str) -> str | None:
    """The alpha-3 code of a country by its English name as CLDR gives it (`Kenya` → `KEN`), any case; or None."""
    return _alpha3_by_name().get(name.strip().casefold())


def country_name(code: str, unknown: str | None = None) -> str:
    """A country's English name (`TZA` → `Tanzania`); if CLDR has none, `unknown`, else the code itself."""
    return Locale("en").territories.get(_alpha2_of().get(code) or _WORLD_BANK.get(code, ""), unknown or code)


def country_currency(code: str, day: dt.date) -> str | None:
    """The currency a country used on `day` (`TZA` → `TZS`), or None."""
    alpha2 = _alpha2_of().get(code) or _WORLD_BANK.get(code)
    currencies = get_territory_currencies(alpha2, start_date=day, end_date=day) if alpha2 else []
    return currencies[0] if currencies else None


def is_known_currency(code: str) -> bool:
    return code in list_currencies()


def named_currencies(sources: Mapping[str, RateSource]) -> tuple[Currency, ...]:
    return tuple(
        Currency(code, get_currency_name(code, locale="en"), sources[code].source, sources[code].date)
        for code in sorted(sources)
    )
