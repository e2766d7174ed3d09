"""Rounding as on paper, ties away from zero, on the 15 significant digits a double holds."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Context, Decimal

# the default context holds 28 digits: a send amount of 1e27 at 2 decimals needs 30, a double up to 310
_WIDE = Context(prec=400)
_QUANTA = tuple(Decimal(1).scaleb(-places) for places in range(16))  # 10⁻ⁿ, made once: a quote rounds 50 figures


def _decimal(value: float) -> Decimal:
    # binary noise (3.3349999999999995 for the 3.335 of 100 × 6.67 / 200) must not decide a tie
    return Decimal(format(value, ".15g"))


def round_half_up(value: float, places: int) -> float:
    """`value` to `places` decimals, ties away from zero, as on paper: 3.335 → 3.34."""
    scaled = abs(value) * 10.0 ** min(places, 16)
    # far from a tie, the value and its 15 digits round alike, and round() is exact and three times as fast
    if scaled < 1e15 and abs(scaled % 1 - 0.5) > 1e-13 * scaled + 1e-12 and places < 16:
        return round(value, places)
    quantum = _QUANTA[places] if 0 <= places < len(_QUANTA) else Decimal(1).scaleb(-places)
    return float(_decimal(value).quantize(quantum, ROUND_HALF_UP, _WIDE))


def round_significant(value: float, digits: int) -> float:
    exact = _decimal(value)
    return round_half_up(value, digits - 1 - exact.adjusted()) if exact else 0.0
