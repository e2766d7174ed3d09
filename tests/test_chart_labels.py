"""The page's charts: no label or provider name on the 3 % and 5 % lines, and the rate chart's axis at round numbers."""

import math
import re

import pytest

from corridor.pages.charts import nice_ticks

FONT = 12  # px, page.css: a line of chart text spans its baseline less this, to its baseline plus a descender's 4
TEXT = re.compile(r'<text [^>]*?y="([\d.]+)"[^>]*>(.*?)</text>', re.S)
GUIDE = re.compile(r'<line class="guide" x1="[\d.]+%" x2="[\d.]+%" y1="([\d.]+)" y2="([\d.]+)"></line>')


def cost_chart(client, query):
    response = client.get(f"/?{query}")
    assert response.status_code == 200
    return re.search(r'<svg id="cost-chart".*?</svg>', response.text, re.S).group(0)


@pytest.mark.parametrize(
    "query", ["corridor=KEN-TZA", "corridor=TZA-UGA", "corridor=USD_MXN&amount=1000", "corridor=GBP_INR&amount=50"]
)
def test_no_name_or_figure_of_the_cost_chart_sits_on_a_guide_line(surveyed_app, query):
    svg = cost_chart(surveyed_app.test_client(), query)
    guides = [(float(y1), float(y2)) for y1, y2 in GUIDE.findall(svg)]
    texts = [(float(y), re.sub(r"<[^>]+>", "", text)) for y, text in TEXT.findall(svg)]
    assert guides and len(texts) > 2
    on_a_line = [(text, y) for y, text in texts for y1, y2 in guides if y - FONT < y2 and y + 4 > y1]
    assert on_a_line == []
    names = [text for _, text in texts if "%" in text and text not in ("3%", "5%")]
    assert all(re.fullmatch(r".+ \d+\.\d\d%( over 5%)?", name) for name in names), names


@pytest.mark.parametrize(
    "low, high, ticks, decimals",
    [
        (16.898, 17.9029, [16.5, 17.0, 17.5, 18.0], 1),
        (83.2, 84.9, [83.0, 83.5, 84.0, 84.5, 85.0], 1),
        (1500, 1650, [1500, 1550, 1600, 1650], 0),
        (0.91, 0.97, [0.9, 0.92, 0.94, 0.96, 0.98], 2),
        (0.0123, 0.0129, [0.0122, 0.0124, 0.0126, 0.0128, 0.013], 4),
        (20.1, 20.1, [20.0, 20.1, 20.2], 1),
    ],
)
def test_the_rate_axis_has_at_most_five_round_ticks_around_the_rates(low, high, ticks, decimals):
    assert nice_ticks(low, high) == (ticks, decimals)


@pytest.mark.parametrize("query", ["corridor=USD_CNY", "corridor=GBP_INR", "corridor=USD_MXN"])
def test_the_rate_chart_writes_round_ticks_and_draws_inside_them(client, query):
    html = client.get(f"/?{query}").text
    svg = re.search(r'<svg id="rate-chart".*?</svg>', html, re.S).group(0)
    ticks = re.findall(r'text-anchor="end" class="label">([0-9.]+)</text>', svg)
    values = [float(t) for t in ticks]
    assert 3 <= len(values) <= 5 and values == sorted(values, reverse=True)
    steps = {round(a - b, 10) for a, b in zip(values, values[1:], strict=False)}
    assert len(steps) == 1
    [step] = steps
    assert round(step / 10 ** math.floor(math.log10(step)), 6) in (1, 2, 5)  # 1, 2 or 5 times a power of ten
    low, high = map(float, re.search(r"between ([\d.]+) and ([\d.]+)", svg).groups())
    assert values[-1] <= low <= high <= values[0]
    points = re.search(r'<polyline class="rate" points="([^"]+)"', svg)[1]
    ys = [float(point.split(",")[1]) for point in points.split()]
    assert 0 <= min(ys) and max(ys) <= 1000


def trend(*averages, smart=None):
    from corridor.domain.costs import CostPeriod, PeriodCosts
    from corridor.pages.charts import trend_chart

    smart = smart or [None] * len(averages)
    return trend_chart(
        [
            CostPeriod(f"2025Q{i % 4 + 1}", PeriodCosts(f"2025Q{i % 4 + 1}", 10, 10, a, None, s, 1.0, {}))
            for i, (a, s) in enumerate(zip(averages, smart, strict=True))
        ]
    )


@pytest.mark.parametrize(
    "averages, smart",
    [
        ((4.7, 3.3, 5.2, 2.9), None),  # just under, just over each line
        ((6.0, 5.4, 3.4, 3.1), (4.6, 2.6, 2.9, 3.05)),
        ((40.0, 3.5, 5.5, 4.0), (3.2, 2.8, 5.1, 4.9)),  # the lines a few px apart
        ((3.0, 5.0, 3.0, 5.0), (3.0, 5.0, 4.0, 4.0)),  # on the lines
    ],
)
def test_no_figure_of_the_trend_chart_sits_on_a_guide_line(averages, smart):
    chart = trend(*averages, smart=smart)
    lines = [guide["y"] for guide in chart["guides"]]
    labels = [p for name in ("average", "smart") for p in chart[name]["points"]]
    assert len(labels) == len(averages) + (len(smart) if smart else 0)
    assert [
        (p["text"], p["label_y"]) for p in labels for line in lines if p["label_y"] - FONT <= line <= p["label_y"] + 4
    ] == []


def test_a_figure_clear_of_the_lines_keeps_its_place():
    chart = trend(8.0, 9.0, smart=[7.0, 1.0])
    assert [p["label_y"] - p["y"] for p in chart["average"]["points"]] == [-8, -8]  # above its point
    assert [p["label_y"] - p["y"] for p in chart["smart"]["points"]] == [18, 18]  # SmaRT's below
