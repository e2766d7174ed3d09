"""Rounding as on paper, ties away from zero, on the 15 significant digits a double holds."""

from __future__ import annotations

import math
from collections.abc import Iterable
from decimal import ROUND_HALF_UP, Context, Decimal
from typing import Any, cast

# the default context holds 28 digits: a send amount of 1e27 at 2 decimals needs 30, a double up to 310
_WIDE = Context(prec=400)
# 10⁻ⁿ, made once: a USD→MXN quote with the survey imported rounds 360 figures (40 entries of 9)
_QUANTA = tuple(Decimal(1).scaleb(-places) for places in range(16))
_SCALES = tuple(10.0**places for places in range(16))  # exact doubles, as many as _QUANTA


def _decimal(value: float) -> Decimal:
    # binary noise (3.3349999999999995 for the 3.335 of 100 × 6.67 / 200) must not decide a tie
    return Decimal(format(value, ".15g"))


def round_half_up(value: float, places: int) -> float:
    """`value` to `places` decimals, ties away from zero, as on paper: 3.335 → 3.34."""
    return cast(float, rounded_half_up((value,), places)[0])


def rounded_half_up(values: Iterable[float | None], places: int) -> list[float | None]:
    """Each of `values` as round_half_up gives it, None left as it is, in one loop: a ranked list rounds a column of
    figures at a time, a call for each figure having been a third of a one-off quote's dump. `python -m bench.run
    --only amount=`, six runs each on 2026-11-28: Group B 0.31–0.34 → 0.35–0.38, Group A 0.37–0.43 → 0.40–0.43."""
    rounded: list[float | None] = []
    fast = 0 <= places < 16
    scale = _SCALES[places] if fast else 1.0
    for value in values:
        if value is not None:
            scaled = value * scale
            if fast and -1e15 < scaled < 1e15:
                # far from a tie (k + ½), by more than its 15 digits can move it, the value rounds as its digits do,
                # to a whole number of 10⁻ᵖ found exactly, and dividing is exact to the last bit as reading Decimal's
                # result is
                margin = (scaled if scaled > 0 else -scaled) * 1e-13 + 1e-12
                fraction = scaled % 1.0
                if fraction < 0.5 - margin or fraction > 0.5 + margin:
                    whole = scaled - fraction + (fraction > 0.5)
                    rounded.append(whole / scale if whole else value * 0.0)  # -0.0 from below, as Decimal gives
                    continue
            quantum = _QUANTA[places] if fast else Decimal(1).scaleb(-places)
            value = float(_decimal(value).quantize(quantum, ROUND_HALF_UP, _WIDE))
        rounded.append(value)
    return rounded


def round_significant(value: float, digits: int) -> float:
    size = abs(value)
    if 1e-12 < size < 1e12:
        exponent = math.floor(math.log10(size))
        # its power of ten is its 15 digits', unless it is within them of the next one
        if 1 + 1e-12 < size / 10.0**exponent < 10 - 1e-11:
            return round_half_up(value, digits - 1 - exponent)
    exact = _decimal(value)
    return round_half_up(value, digits - 1 - exact.adjusted()) if exact else 0.0


def shown(
    values: Iterable[float | None], places: int = 2, digits: int | None = None, text: str | None = None
) -> list[Any]:
    """`values` as an answer shows them: half-up to `places` decimals, or to `digits` significant figures, never -0.0,
    written with `text` if given (`{:.2f}%`); None stays None."""
    rounded = (
        [None if value is None else round_significant(value, digits) for value in values]
        if digits
        else rounded_half_up(values, places)
    )
    if text is None:
        return [None if value is None else value + 0.0 for value in rounded]
    return [None if value is None else text.format(value + 0.0) for value in rounded]
