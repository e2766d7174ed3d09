"""Rounding as on paper, ties away from zero, on the 15 significant digits a double holds."""

from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Context, Decimal

# the default context holds 28 digits: a send amount of 1e27 at 2 decimals needs 30, a double up to 310
_WIDE = Context(prec=400)
_QUANTA = tuple(Decimal(1).scaleb(-places) for places in range(16))  # 10⁻ⁿ, made once: a quote rounds 50 figures
_SCALES = tuple(10.0**places for places in range(16))  # exact doubles, as many as _QUANTA


def _decimal(value: float) -> Decimal:
    # binary noise (3.3349999999999995 for the 3.335 of 100 × 6.67 / 200) must not decide a tie
    return Decimal(format(value, ".15g"))


def round_half_up(value: float, places: int) -> float:
    """`value` to `places` decimals, ties away from zero, as on paper: 3.335 → 3.34."""
    if 0 <= places < 16:
        scale = _SCALES[places]
        scaled = value * scale
        if -1e15 < scaled < 1e15:
            # far from a tie (k + ½), by more than its 15 digits can move it, the value rounds as its digits do, to a
            # whole number of 10⁻ᵖ found exactly, and dividing is exact to the last bit as reading Decimal's result is
            margin = (scaled if scaled > 0 else -scaled) * 1e-13 + 1e-12
            fraction = scaled % 1.0
            if fraction < 0.5 - margin or fraction > 0.5 + margin:
                whole = scaled - fraction + (fraction > 0.5)
                return whole / scale if whole else value * 0.0  # -0.0 from below, as Decimal gives
    quantum = _QUANTA[places] if 0 <= places < len(_QUANTA) else Decimal(1).scaleb(-places)
    return float(_decimal(value).quantize(quantum, ROUND_HALF_UP, _WIDE))


def round_significant(value: float, digits: int) -> float:
    size = abs(value)
    if 1e-12 < size < 1e12:
        exponent = math.floor(math.log10(size))
        # its power of ten is its 15 digits', unless it is within them of the next one
        if 1 + 1e-12 < size / 10.0**exponent < 10 - 1e-11:
            return round_half_up(value, digits - 1 - exponent)
    exact = _decimal(value)
    return round_half_up(value, digits - 1 - exact.adjusted()) if exact else 0.0
