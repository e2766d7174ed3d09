"""The page's two charts as numbers for inline SVG: bars of true cost, a line of a pair's rate."""

from __future__ import annotations

from typing import Any, Sequence

from corridor.domain.history import Point
from corridor.domain.pricing import SDG_CEILING_PCT, SDG_TARGET_PCT

WIDTH, BAR_HEIGHT, LABEL_WIDTH = 640, 26, 150  # SVG user units
LINE_HEIGHT, MARGIN = 220, 40


def cost_chart(entries: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """One bar per provider entry (Group B's, in rank order), and guide lines at 3 % and 5 %."""
    costs = [float(entry["trueCostPct"].rstrip("%")) for entry in entries]
    top = max([SDG_CEILING_PCT * 1.2, *costs])
    span = WIDTH - LABEL_WIDTH - 130  # room for the value after the longest bar

    def x(value: float) -> float:
        return round(LABEL_WIDTH + span * value / top, 1)

    bars = [{"y": i * BAR_HEIGHT + 8, "width": max(1.0, round(x(cost) - LABEL_WIDTH, 1)), "end": x(cost),
             "provider": entry["provider"], "text": entry["trueCostPct"], "over": cost > SDG_CEILING_PCT}
            for i, (entry, cost) in enumerate(zip(entries, costs))]
    height = len(bars) * BAR_HEIGHT + 36
    guides = [{"x": x(level), "label": f"{level:.0f}%", "height": height - 24} for level in (SDG_TARGET_PCT, SDG_CEILING_PCT)]
    return {"width": WIDTH, "height": height, "label_width": LABEL_WIDTH, "bar_height": BAR_HEIGHT - 8,
            "bars": bars, "guides": guides}


def rate_chart(points: Sequence[Point], from_code: str, to_code: str, source: str) -> dict[str, Any]:
    """A polyline of the points (oldest first) with its lowest and highest rate and its first and last date."""
    if not points:
        publisher = "The ECB" if source == "ECB" else source
        return {"missing": f"{publisher} published no {from_code} and {to_code} rates in the last year."}
    rates = [p.rate for p in points]
    low, high = min(rates), max(rates)
    spread = (high - low) or high or 1.0
    inner_w, inner_h = WIDTH - 2 * MARGIN - 40, LINE_HEIGHT - 2 * MARGIN
    last = max(len(points) - 1, 1)
    coordinates = " ".join(
        f"{MARGIN + 40 + inner_w * i / last:.1f},{MARGIN + inner_h * (high - rate) / spread:.1f}" for i, rate in enumerate(rates)
    )
    return {"width": WIDTH, "height": LINE_HEIGHT, "points": coordinates, "low": f"{low:.6g}", "high": f"{high:.6g}",
            "first": points[0].date.isoformat(), "last": points[-1].date.isoformat(), "latest": f"{rates[-1]:.6g}",
            "top": MARGIN, "bottom": MARGIN + inner_h, "left": MARGIN + 40, "right": MARGIN + 40 + inner_w}
