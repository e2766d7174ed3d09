"""Rounding as on paper, ties away from zero, on the 15 significant digits a double holds."""

from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Context, Decimal

# the default context holds 28 digits: a send amount of 1e27 at 2 decimals needs 30, a double up to 310
_WIDE = Context(prec=400)
_QUANTA = tuple(Decimal(1).scaleb(-places) for places in range(16))  # 10⁻ⁿ, made once: a quote rounds 50 figures
_SCALES = tuple(10.0**places for places in range(16))  # exact doubles


def _decimal(value: float) -> Decimal:
    # binary noise (3.3349999999999995 for the 3.335 of 100 × 6.67 / 200) must not decide a tie
    return Decimal(format(value, ".15g"))


def round_half_up(value: float, places: int) -> float:
    """`value` to `places` decimals, ties away from zero, as on paper: 3.335 → 3.34."""
    if 0 <= places < len(_SCALES):
        scaled = value * _SCALES[places]
        if abs(scaled) < 1e15:
            nearest = round(scaled)
            # far from a tie (k + ½), by more than its 15 digits can move it, the value rounds as its digits do, and
            # dividing is exact to the last bit, as Decimal's result read back is: four times as fast
            if 0.5 - abs(scaled - nearest) > 1e-13 * abs(scaled) + 1e-12:
                return nearest / _SCALES[places] if nearest else value * 0.0  # -0.0 from below, as Decimal gives
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
