"""Rounding as the API dumps numbers: half-up to decimals or significant figures, and fast JSON
texts of values rounded half-up. Pure: no marshmallow."""

from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, Callable, Iterable

from corridor.encoding import json_text


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
