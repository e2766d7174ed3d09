"""The page's two charts as numbers for inline SVG: bars of true cost, a line of a pair's rate.

Both are laid out in percentages of the chart's width and in pixels of its height, with no viewBox scaling the whole:
their text keeps its CSS size at every width (a 640-unit drawing shrunk into a phone's 343 px made it 7 px tall).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from corridor.domain.history import Point
from corridor.domain.pricing import SDG_CEILING_PCT, SDG_TARGET_PCT

# the cost chart, in % of its width: provider names end at LABEL_END, bars start at BARS_START and the longest
# spans BARS_SPAN, leaving the rest for the value written after each bar
LABEL_END, BARS_START, BARS_SPAN = 34.0, 35.0, 38.0
ROW, BAR = 28, 18  # px: a provider's row, its bar
# the rate chart: the plot from PLOT_LEFT to PLOT_RIGHT (%), PLOT_TOP px down, PLOT_HEIGHT px tall
PLOT_LEFT, PLOT_RIGHT, PLOT_TOP, PLOT_HEIGHT = 17.0, 98.0, 28, 150
LINE_SPACE = 1000  # the polyline's own square, stretched over the plot


def cost_chart(entries: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """One bar per provider entry (Group B's, in rank order) with a known true cost, and guide lines at 3 % and 5 %."""
    entries = [entry for entry in entries if entry["trueCostPct"] is not None]
    costs = [float(entry["trueCostPct"].rstrip("%")) for entry in entries]
    top = max([SDG_CEILING_PCT * 1.2, *costs])

    def x(value: float) -> float:
        return round(BARS_START + BARS_SPAN * value / top, 2)

    bars = [{"y": i * ROW + 8, "width": max(0.2, round(x(cost) - BARS_START, 2)), "end": x(cost),
             "provider": entry["provider"], "text": entry["trueCostPct"], "over": cost > SDG_CEILING_PCT}
            for i, (entry, cost) in enumerate(zip(entries, costs, strict=True))]
    height = len(bars) * ROW + 36
    guides = [
        {"x": x(level), "label": f"{level:.0f}%", "height": height - 24} for level in (SDG_TARGET_PCT, SDG_CEILING_PCT)
    ]
    return {
        "height": height,
        "label_end": LABEL_END,
        "bars_start": BARS_START,
        "bar_height": BAR,
        "bars": bars,
        "guides": guides,
    }


def rate_chart(points: Sequence[Point], from_code: str, to_code: str, source: str) -> dict[str, Any]:
    """A polyline of the points (oldest first), three labelled rates on its axis in `to_code` per `from_code`, and
    its first, middle and last dates."""
    if not points:
        publisher = "The ECB" if source == "ECB" else source
        return {"missing": f"{publisher} published no {from_code} and {to_code} rates in the last year."}
    rates = [p.rate for p in points]
    low, high = min(rates), max(rates)
    spread = (high - low) or high or 1.0
    last = max(len(points) - 1, 1)
    coordinates = " ".join(
        f"{LINE_SPACE * i / last:.1f},{LINE_SPACE * (high - rate) / spread:.1f}" for i, rate in enumerate(rates)
    )
    ticks = [
        {"y": round(PLOT_TOP + PLOT_HEIGHT * share, 1), "text": f"{high - spread * share:.6g}"}
        for share in (0.0, 0.5, 1.0)
    ]
    middle = points[len(points) // 2].date.isoformat()
    return {
        "height": PLOT_TOP + PLOT_HEIGHT + 32,
        "points": coordinates,
        "space": LINE_SPACE,
        "ticks": ticks,
        "unit": f"{to_code} per {from_code}",
        "low": f"{low:.6g}",
        "high": f"{high:.6g}",
        "first": points[0].date.isoformat(),
        "middle": middle,
        "last": points[-1].date.isoformat(),
        "latest": f"{rates[-1]:.6g}",
        "left": PLOT_LEFT,
        "right": PLOT_RIGHT,
        "top": PLOT_TOP,
        "plot_height": PLOT_HEIGHT,
        "bottom": PLOT_TOP + PLOT_HEIGHT,
    }
