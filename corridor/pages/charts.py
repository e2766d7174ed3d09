"""The page's charts as numbers for inline SVG: bars of true cost, a line of a pair's rate, the survey's average
cost by period. Laid out in percentages of the chart's width and pixels of its height, with no viewBox scaling the
whole: their text keeps its CSS size at every width (a 640-unit drawing shrunk into a phone's 343 px made it 7 px)."""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from typing import Any

from corridor.domain.costs import CostPeriod
from corridor.domain.history import Point
from corridor.domain.pricing import SDG_CEILING_PCT, SDG_TARGET_PCT
from corridor.domain.rounding import round_half_up

# the cost chart, in % of its width: bars start at BARS_START and the longest spans BARS_SPAN; each provider's name and
# true cost are written above its bar, as a name beside its bar ("Development Bank of Kenya") was cut off on a phone
BARS_START, BARS_SPAN = 0.5, 90.0
ROW, NAME, BAR = 44, 14, 18  # px: a provider's row, its name's baseline in it, its bar under the name
# the rate chart: the plot from PLOT_LEFT to PLOT_RIGHT (%), PLOT_TOP px down, PLOT_HEIGHT px tall
PLOT_LEFT, PLOT_RIGHT, PLOT_TOP, PLOT_HEIGHT = 17.0, 98.0, 28, 150
LINE_SPACE = 1000  # the polyline's own square, stretched over the plot
RATE_TICKS = 5  # at most, round numbers
# the trend chart: the plot from TREND_LEFT to TREND_RIGHT (%), TREND_TOP px down, TREND_HEIGHT px tall; at most
# TREND_LABELS periods named under it (every k-th), and a guide's label only TREND_GAP px clear of the other's
TREND_LEFT, TREND_RIGHT, TREND_TOP, TREND_HEIGHT, TREND_LABELS, TREND_GAP = 12.0, 97.0, 12, 160, 5, 14
TEXT_PX, DESCENT = 12, 4  # a line of chart text (page.css): its height above the baseline, and below


def cost_chart(entries: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """One bar per provider entry (Group B's, in rank order) with a known true cost, and guide lines at 3 % and 5 %."""
    entries = [entry for entry in entries if entry["trueCostPct"] is not None]
    costs = [float(entry["trueCostPct"].rstrip("%")) for entry in entries]
    top = max([SDG_CEILING_PCT * 1.2, *costs])

    def x(value: float) -> float:
        return round(BARS_START + BARS_SPAN * value / top, 2)

    bars = [
        {
            "y": i * ROW + NAME + 6,
            "name_y": i * ROW + NAME,
            "width": max(0.2, round(x(cost) - BARS_START, 2)),
            "provider": entry["provider"],
            "text": entry["trueCostPct"],
            "over": cost > SDG_CEILING_PCT,
        }
        for i, (entry, cost) in enumerate(zip(entries, costs, strict=True))
    ]
    height = len(bars) * ROW + 36
    # the guide lines cross the bars' bands only: a row's name and figure, written above its bar, are never on a
    # line, whatever the width the percentages stretch to
    segments = [(bar["y"] - 2, bar["y"] + BAR + 2) for bar in bars]
    # 3 % written to the left of its line and 5 % to the right of its own: apart however close the lines come (a
    # corridor with a 40 % offer puts them 7 px apart on a phone)
    guides = [
        {
            "x": x(level),
            "label": f"{level:.0f}%",
            "height": height - 24,
            "anchor": anchor,
            "dx": dx,
            "segments": segments,
        }
        for level, anchor, dx in ((SDG_TARGET_PCT, "end", -3), (SDG_CEILING_PCT, "start", 3))
    ]
    return {"height": height, "bars_start": BARS_START, "bar_height": BAR, "bars": bars, "guides": guides}


def rate_chart(points: Sequence[Point], from_code: str, to_code: str, source: str) -> dict[str, Any]:
    """A polyline of the points (oldest first), rates on its `to_code` per `from_code` axis, and three dates."""
    if not points:
        publisher = "The ECB" if source == "ECB" else source
        return {"missing": f"{publisher} published no {from_code} and {to_code} rates in the last year."}
    rates = [p.rate for p in points]
    low, high = min(rates), max(rates)
    values, decimals = nice_ticks(low, high)
    bottom, top = values[0], values[-1]
    last = max(len(points) - 1, 1)
    coordinates = " ".join(
        f"{LINE_SPACE * i / last:.1f},{LINE_SPACE * (top - rate) / (top - bottom):.1f}" for i, rate in enumerate(rates)
    )
    ticks = [
        {"y": round(PLOT_TOP + PLOT_HEIGHT * (top - value) / (top - bottom), 1), "text": f"{value:.{decimals}f}"}
        for value in reversed(values)
    ]
    return {
        "height": PLOT_TOP + PLOT_HEIGHT + 32,
        "points": coordinates,
        "space": LINE_SPACE,
        "ticks": ticks,
        "unit": f"{to_code} per {from_code}",
        "low": f"{low:.6g}",
        "high": f"{high:.6g}",
        "first": points[0].date.isoformat(),
        "middle": points[len(points) // 2].date.isoformat(),
        "last": points[-1].date.isoformat(),
        "latest": f"{rates[-1]:.6g}",
        "left": PLOT_LEFT,
        "right": PLOT_RIGHT,
        "top": PLOT_TOP,
        "plot_height": PLOT_HEIGHT,
        "bottom": PLOT_TOP + PLOT_HEIGHT,
    }


def nice_ticks(low: float, high: float, most: int = RATE_TICKS) -> tuple[list[float], int]:
    """At most `most` round values from at or below `low` to at or above `high`, 1, 2 or 5 times a power of ten
    apart (Heckbert's nice numbers), and the decimals that write them."""
    span = (high - low) or abs(high) / 10 or 1.0
    magnitude = 10 ** math.floor(math.log10(span / (most - 1)))
    for multiple in (1, 2, 5, 10, 20):
        step = multiple * magnitude
        first, past = math.floor(low / step), math.ceil(high / step)
        if past == first:  # one flat value: a step either side of it
            first, past = first - 1, past + 1
        if past - first < most:
            break
    decimals = max(0, -math.floor(math.log10(step) + 1e-9))
    return [round(k * step, decimals) for k in range(first, past + 1)], decimals


def trend_chart(periods: Sequence[CostPeriod]) -> dict[str, Any]:
    """The survey's average and SmaRT, and the published average, by period: a period without a figure leaves a gap."""
    figures = [value for p in periods for value in (p.average, p.smart, p.published_average) if value is not None]
    top = math.ceil(max([SDG_CEILING_PCT * 1.2, *figures]) * 1.05)  # whole percents: the axis names the top
    bottom = math.floor(min([0.0, *figures]))

    def y(value: float) -> float:
        return round(TREND_TOP + TREND_HEIGHT * (top - value) / (top - bottom), 1)

    def x(index: int) -> float:
        return round(TREND_LEFT + (TREND_RIGHT - TREND_LEFT) * (index + 0.5) / len(periods), 2)

    step = -(-len(periods) // TREND_LABELS)  # ceiling division
    labelled = set(range(len(periods) - 1, -1, -step))  # the latest period always named
    guide_ys = target, ceiling = y(SDG_TARGET_PCT), y(SDG_CEILING_PCT)

    def series(name: str) -> dict[str, Any]:
        values = [getattr(p, name) for p in periods]
        points = [
            {
                "x": x(i),
                "y": y(value),
                "text": f"{round_half_up(value, 2):.2f}%",
                "named": i in labelled,
                "label_y": _label_y(y(value), name == "smart", guide_ys),
            }
            for i, value in enumerate(values)
            if value is not None
        ]
        segments = [
            {"x1": x(i), "y1": y(a), "x2": x(i + 1), "y2": y(b)}
            for i, (a, b) in enumerate(itertools.pairwise(values))
            if a is not None and b is not None
        ]
        return {"points": points, "segments": segments}

    return {
        "height": TREND_TOP + TREND_HEIGHT + 28,
        "left": TREND_LEFT,
        "right": TREND_RIGHT,
        "bottom": TREND_TOP + TREND_HEIGHT,
        "top_text": f"{top}%",
        "top_y": y(top),
        "average": series("average"),
        "smart": series("smart"),
        "published": series("published_average"),
        # the 5 % label left out where it would run into the 3 % one: the legend names both lines
        "guides": [
            {"y": target, "label": "3%", "name": "target"},
            {"y": ceiling, "label": "5%" if target - ceiling >= TREND_GAP else None, "name": "ceiling"},
        ],
        "periods": [
            {"x": x(i), "text": f"{p.period[:4]} {p.period[4:]}"} for i, p in enumerate(periods) if i in labelled
        ],
    }


def _label_y(point_y: float, below: bool, guide_ys: Sequence[float]) -> float:
    """The baseline of a point's figure: above the point (below it for SmaRT), else on its other side, else moved on
    away from it, so that no guide line runs through the text."""

    def clear(baseline: float) -> bool:
        return not any(baseline - TEXT_PX - 1 <= line <= baseline + DESCENT + 1 for line in guide_ys)

    under, above = point_y + 18, point_y - 8
    baseline, other, step = (under, above, 1) if below else (above, under, -1)
    if not clear(baseline) and clear(other):
        return round(other, 1)
    while not clear(baseline):
        baseline += step
    return round(baseline, 1)
