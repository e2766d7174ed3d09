"""The comparison page at /: rendered on the server from Group B's figures, with its own files only."""

import re

import pytest
from expected import active, corridor_costs, countries, group_b_entries, key, pct, shipped_seed

ACTIVE = active(shipped_seed())


def page(client, url="/", status=200):
    response = client.get(url)
    assert response.status_code == status
    assert response.mimetype == "text/html"
    assert response.headers["Content-Security-Policy"] == "default-src 'self'; frame-ancestors 'none'"
    assert response.headers["X-Frame-Options"] == "DENY"
    return response.get_data(as_text=True)


def providers_in(html):
    return re.findall(r'<tr data-provider="([^"]+)">', html)


def test_the_page_uses_no_inline_script_or_style(client):
    html = page(client)
    assert re.findall(r"<script[^>]*>", html) == ['<script src="/assets/page.js" defer>']
    assert " style=" not in html and "<style" not in html
    assert re.findall(r'<link rel="stylesheet" href="([^"]+)">', html) == ["/assets/page.css"]


@pytest.mark.parametrize(
    "url, corridor, options",
    [
        ("/?corridor=GBP_INR&amount=1000", "GBP_INR", {"amount": 1000.0}),
        ("/?corridor=gbp_inr&amount=1000&mode=receive", "GBP_INR", {"receive": 1000.0}),
        ("/?corridor=USD_PHP&payout=cash_pickup", "USD_PHP", {"payout": "cash_pickup"}),
        ("/", "USD_MXN", {}),
    ],
)
def test_the_table_and_chart_rank_as_the_data_says(client, url, corridor, options):
    html = page(client, url)
    expected = group_b_entries(shipped_seed(), next(c for c in ACTIVE if key(c) == corridor), **options)
    assert providers_in(html) == [entry["provider"] for entry in expected]
    assert len(re.findall(r'<rect class="bar', html)) == len(expected)
    for entry in expected:
        assert f'<td data-label="True cost">{entry["trueCostPct"]}</td>' in html
        assert f'<td data-label="Total paid ({corridor[:3]})">{entry["totalPaid"]:,.2f}</td>' in html


def test_the_page_links_to_sign_up_and_to_the_docs_at_its_top(client):
    html = page(client)
    top = html.split("<h1>", 1)[0]
    assert '<a href="/account/signup" class="key-link">Get an API key</a>' in top
    assert '<a href="/api/docs">API documentation</a>' in top and '<a href="/api/docs/guide">Guide</a>' in top


def test_the_cost_chart_writes_3_pct_left_of_its_line_and_5_pct_right_of_its_own(surveyed_app):
    # Kenya → Tanzania: a 25 % offer puts the two lines a few pixels apart on a phone
    html = page(surveyed_app.test_client(), "/?corridor=KEN-TZA")
    guide_label = r'<text x="([\d.]+)%" dx="(-?\d+)" y="\d+" text-anchor="(\w+)" class="guide-label">(\d%)</text>'
    labels = re.findall(guide_label, html)
    assert [(dx, anchor, text) for _, dx, anchor, text in labels] == [("-3", "end", "3%"), ("3", "start", "5%")]
    assert float(labels[0][0]) < float(labels[1][0])


def test_every_corridor_row_labels_its_figures_for_a_phone(client):
    row = re.search(r'<table id="corridors">.*?<tbody>\s*(<tr>.*?</tr>)', page(client), re.S).group(1)
    assert re.findall(r'<td data-label="([^"]+)">', row) == [
        "Average cost",
        "Best cost",
        "Target of 3%",
        "Providers above 5%",
        "Prices",
    ]


def test_the_state_is_rendered_into_the_form(client):
    html = page(client, "/?corridor=GBP_INR&amount=5000&mode=receive&payout=bank_deposit")
    assert '<option value="GBR-IND" selected>United Kingdom → India (GBP→INR)</option>' in html
    assert 'id="mode-receive" name="mode" value="receive" checked' in html
    assert 'value="5000"' in html and '<option value="bank_deposit" selected>' in html


@pytest.mark.parametrize(
    "url, message",
    [
        (
            "/?corridor=USD_MXN&amount=abc",
            "Enter an amount above 0 and up to 1,000,000,000 USD, with at most 2 decimals.",
        ),
        (
            "/?corridor=GBP_INR&amount=-5",
            "Enter an amount above 0 and up to 1,000,000,000 GBP, with at most 2 decimals.",
        ),
        (
            "/?corridor=USD_MXN&amount=-1&mode=receive",
            "Enter an amount above 0 and up to 1,000,000,000,000 MXN, with at most 2 decimals.",
        ),
        ("/?corridor=XXX_YYY", "Pick a corridor from the list."),
        ("/?corridor=BAD", "Pick a corridor from the list."),
        ("/?corridor=USD_MXN&payout=teleport", "Pick a payout method from the list."),
    ],
)
def test_a_bad_query_is_a_400_page_a_sender_can_read(client, url, message):
    html = page(client, url, status=400)
    assert '<p class="error" role="alert">' + message + "</p>" in html
    assert "Query parameter" not in html and "receive_amount" not in html
    assert providers_in(html)  # the corridor asked for, or the first, so the page is still of use


@pytest.mark.parametrize(
    "url, label, hint, placeholder",
    [
        ("/?corridor=GBP_INR", "You send (GBP)", "In GBP; empty: 149.27 GBP, the reference amount.", "149"),
        ("/?corridor=GBP_INR&mode=receive&amount=5000", "They receive (INR)", "In INR: what must arrive.", "18,991"),
        ("/", "You send (USD)", "In USD; empty: 200.00 USD, the reference amount.", "200"),
    ],
)
def test_the_amount_field_names_the_currency_of_the_corridor_and_mode(client, url, label, hint, placeholder):
    html = page(client, url)
    assert f'<label for="amount" id="amount-label">{label}</label>' in html
    assert f'<small id="amount-hint">{hint}</small>' in html
    assert f'placeholder="{placeholder}"' in html


def test_they_receive_mode_shows_what_the_sender_pays_ranked_by_total_paid(client):
    html = page(client, "/?corridor=USD_MXN&amount=5000&mode=receive")
    expected = group_b_entries(shipped_seed(), next(c for c in ACTIVE if key(c) == "USD_MXN"), receive=5000.0)
    assert "<caption>Ranked by total paid to deliver 5,000.00 MXN</caption>" in html
    assert '<th scope="col">You send (USD)</th>' in html and '<th scope="col">They receive (MXN)</th>' not in html
    assert [entry["totalPaid"] for entry in expected] == sorted(entry["totalPaid"] for entry in expected)
    for entry in expected:
        assert f'<td data-label="You send (USD)">{entry["sendAmount"]:,.2f}</td>' in html
        assert f'<td data-label="Total paid (USD)">{entry["totalPaid"]:,.2f}</td>' in html


def test_they_receive_mode_without_an_amount_asks_for_one(client):
    html = page(client, "/?corridor=GBP_INR&mode=receive")
    assert '<p class="notice" role="status">Enter how much they should receive, in INR,' in html
    assert "<caption>Ranked by true cost at the reference amount, 149.27 GBP</caption>" in html


def test_the_charts_say_what_they_draw(client):
    html = page(client, "/?corridor=USD_CNY&amount=1000")
    assert 'bars above 5% are red and marked "over 5%"' in html and "hatched" not in html
    assert html.index('class="guide"') < html.index('class="bar')  # the guide lines behind the bars and labels
    ticks = re.findall(r'text-anchor="end" class="label">([0-9.]+)</text>', html)
    assert 3 <= len(ticks) <= 5 and [float(t) for t in ticks] == sorted(map(float, ticks), reverse=True)
    assert '<text x="0" y="14" class="unit">CNY per USD</text>' in html
    assert "ECB rates to 2026-10-30, the last day of each week" in html


def test_the_rate_chart_draws_the_last_year_or_says_why_not(client):
    assert '<polyline class="rate" points="' in page(client, "/?corridor=GBP_INR")
    html = page(client, "/?corridor=USD_NGN")
    assert (
        '<p class="no-history">No rate history for NGN: the ECB does not publish it, and no Frankfurter series of it '
        "is held.</p>" in html
    )


def test_every_corridor_is_listed_with_its_sdg_status(client):
    html = page(client)
    rows = re.findall(
        r'<tr><th scope="row"><a href="/\?corridor=([A-Z-]+)">[^<]+</a></th><td data-label="Average cost">([^<]+)</td>'
        r'<td data-label="Best cost">[^<]+</td><td data-label="Target of 3%">([^<]+)</td>',
        html,
    )
    assert [(k, avg) for k, avg, _ in rows] == [
        ("-".join(countries(c)), pct(corridor_costs(shipped_seed(), c)["avg"])) for c in ACTIVE
    ]
    assert {status for *_, status in rows} <= {"✓ met", "✗ not met"}


@pytest.mark.parametrize(
    "name, mimetype", [("page.js", "text/javascript"), ("page.css", "text/css"), ("favicon.svg", "image/svg+xml")]
)
def test_the_page_files_are_served(client, name, mimetype):
    response = client.get(f"/assets/{name}")
    assert response.status_code == 200 and response.mimetype == mimetype


@pytest.mark.parametrize("url", ["/assets/page.css", "/api/docs/assets/docs.js", "/api/docs/page-375.png"])
def test_a_file_answers_if_match_and_range_as_http_says(client, url):
    whole = client.get(url)
    assert whole.status_code == 200 and whole.headers["ETag"]
    assert client.get(url, headers={"If-Match": "*"}).data == whole.data
    assert client.get(url, headers={"If-Match": whole.headers["ETag"]}).status_code == 200
    refused = client.get(url, headers={"If-Match": '"nope"'})
    assert (refused.status_code, refused.headers["Cache-Control"]) == (412, "no-store")
    assert whole.data not in refused.data
    for ranges in ("garbage", "bytes=5-1", "bytes=0-0,5-9", "bytes=0-9"):  # served whole: HTTP lets Range be ignored
        answer = client.get(url, headers={"Range": ranges})
        assert (answer.status_code, answer.data) == (200, whole.data)
    assert client.get(url, headers={"If-None-Match": whole.headers["ETag"]}).status_code == 304


def test_other_assets_are_not_found(client):
    assert client.get("/assets/docs.js").status_code == 404


def test_a_refused_amount_shows_the_corridor_asked_for_at_the_reference_amount(client):
    html = page(client, "/?corridor=GBP_INR&amount=abc", status=400)
    expected = client.get("/api/poc/providers?corridor=GBP_INR").get_json()["providers"]
    assert providers_in(html) == [entry["provider"] for entry in expected]
    assert "<caption>Ranked by true cost at the reference amount, 149.27 GBP</caption>" in html
    assert 'value="abc"' in html  # kept in the box, to correct


def test_without_active_corridors_the_page_says_so(make_app, seed_copy):
    for corridor in seed_copy["corridors"]:
        corridor["active"] = False
    html = page(make_app(seed_copy).test_client())
    assert '<p class="error" role="alert">The data holds no active corridor to compare yet.</p>' in html
    assert 'id="quote-form"' not in html


# --- the survey's average cost by period -----------------------------------------------------------------------


def trend_desc(html):
    return re.search(r'<desc id="trend-desc">([^<]+)</desc>', html).group(1)


def test_a_surveyed_corridor_shows_its_average_cost_by_period(surveyed_app):
    html = page(surveyed_app.test_client(), "/?corridor=KEN-TZA")
    assert (
        '<p id="trend-sentence">Sending 200 USD worth from Kenya to Tanzania cost 11.1 % on average in 2025 Q1, '
        "12.2 % in 2025 Q3.</p>"
    ) in html
    assert trend_desc(html) == (
        "By period, the World Bank's published average; the average computed from the survey "
        "rows 11.14%, 12.16%; SmaRT, the three cheapest that deliver within 5 days 2.31%, "
        "3.28%; dotted lines at the UN target of 3% and the 5% ceiling."
    )
    assert (
        len(re.findall(r'<circle class="trend average"', html))
        == len(re.findall(r'<circle class="trend smart"', html))
        == 2
    )
    assert re.findall(r'class="label">(2025 Q[13])</text>', html) == ["2025 Q1", "2025 Q3"]
    assert "Latest surveyed period: 2025 Q3, collected 14 Aug – 1 Sep 2025.</p>" in html
    assert [label for label in re.findall(r'class="label">([35]%)</text>', html)] == ["3%", "5%"]


def test_a_corridor_without_survey_data_has_no_trend_chart(surveyed_app, client):
    for app_client in (surveyed_app.test_client(), client):
        html = page(app_client, "/?corridor=USD_MXN")
        assert "trend-chart" not in html and "Average cost by period" not in html


def test_the_5_pct_label_gives_way_where_it_would_run_into_the_3_pct_one(surveyed_app):
    html = page(surveyed_app.test_client(), "/?corridor=TZA-UGA")  # averages above 50 %: 3 and 5 a few px apart
    assert re.findall(r'class="label">([35]%)</text>', html) == ["3%"]
    assert '<span class="key ceiling"></span>ceiling, 5%' in html


def test_a_long_history_names_at_most_five_periods_the_latest_among_them():
    from corridor.domain.costs import CostPeriod, PeriodCosts
    from corridor.pages.charts import trend_chart

    periods = [
        CostPeriod(period, PeriodCosts(period, 10, 10, 8.0 - i / 10, None, 3.0 if i % 2 else None, 1.0, {}))
        for i in range(59)
        for period in [f"{2011 + i // 4}Q{i % 4 + 1}"]
    ]
    chart = trend_chart(periods)
    named = [p["text"] for p in chart["periods"]]
    assert len(named) == 5 and named[-1] == "2025 Q3"
    assert len(chart["average"]["points"]) == 59 and len(chart["average"]["segments"]) == 58
    # SmaRT in every other period only: its points, no line across the gaps
    assert len(chart["smart"]["points"]) == 29 and chart["smart"]["segments"] == []


def test_a_period_with_no_average_is_left_out_of_the_sentence():
    from corridor.domain.costs import CorridorCosts, CostPeriod, PeriodCosts
    from corridor.pages.comparison import trend_sentence

    def costs(*averages):
        return CorridorCosts(
            "KEN-UGA",
            "Kenya",
            "Uganda",
            "KES",
            "UGX",
            tuple(
                CostPeriod(f"2025Q{i + 1}", PeriodCosts(f"2025Q{i + 1}", 1, 1, a, None, None, None, {}))
                for i, a in enumerate(averages)
            ),
        )

    assert trend_sentence(costs(None, 4.04, None)) == (
        "Sending 200 USD worth from Kenya to Uganda cost 4.0 % on average in 2025 Q2."
    )
    assert trend_sentence(costs(None)) == (
        "No service surveyed from Kenya to Uganda disclosed its exchange rate, so the survey gives no average."
    )
    assert trend_sentence(costs(9.95, 3.0, 2.25)) == (
        "Sending 200 USD worth from Kenya to Uganda cost 10.0 % on average in 2025 Q1, 2.3 % in 2025 Q3."
    )
