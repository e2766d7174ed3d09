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
    quantum = _QUANTA[places] if places < len(_QUANTA) else Decimal(1).scaleb(-places)
    return float(_decimal(value).quantize(quantum, ROUND_HALF_UP, _WIDE))


def round_significant(value: float, digits: int) -> float:
    exact = _decimal(value)
    if not exact:
        return 0.0
    return float(exact.quantize(Decimal(1).scaleb(exact.adjusted() - digits + 1), ROUND_HALF_UP))
