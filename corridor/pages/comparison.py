"""The comparison page at `/`: Group B's figures as a ranked table and charts, rendered on the server."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

from flask import render_template, request
from flask.typing import ResponseReturnValue
from marshmallow import ValidationError
from werkzeug.datastructures import MultiDict
from werkzeug.exceptions import NotFound

from corridor.api.caching import static_file
from corridor.domain.catalog import AmbiguousCorridor, Catalog, NoOffers, NoSurveyData, NotServed
from corridor.domain.costs import SURVEY_POINT_USD, CorridorCosts
from corridor.domain.history import NoHistory
from corridor.domain.model import PAYOUT_METHODS
from corridor.domain.pricing import reference_amount
from corridor.domain.rounding import round_half_up, round_significant
from corridor.pages.charts import cost_chart, rate_chart, trend_chart
from corridor.state import current_service
from corridor.state.policy import Policy, PolicyBlueprint
from schemas.fields import MONTHS, display_date
from schemas.poc import CorridorSchema, ProvidersResponse
from schemas.query import OptionalCorridorQuery

POLICY = Policy()  # a public page, counted against the address's budget
bp = PolicyBlueprint("pages", __name__, template_folder="templates", policy=POLICY)

_ASSETS = Path(__file__).resolve().parent / "assets"
_PAGE_FILES = {"page.css", "page.js", "favicon.svg"}
# no inline script or style: the page's own files only; and no framing (default-src does not cover it)
_HEADERS = {"Content-Security-Policy": "default-src 'self'; frame-ancestors 'none'", "Cache-Control": "no-cache"}
_query = OptionalCorridorQuery()
# what a sender reads when the query cannot be shown, by the parameter at fault: never a parameter's name
_SENDER_ERRORS = {
    "corridor": "Pick a corridor from the list.",
    "amount": "Enter an amount above 0 and up to 1,000,000,000 {currency}, with at most 2 decimals.",
    "receive_amount": "Enter an amount above 0 and up to 1,000,000,000,000 {currency}, with at most 2 decimals.",
    "payout": "Pick a payout method from the list.",
}
_providers = ProvidersResponse()
_corridors = CorridorSchema(many=True)


@bp.get("/")
def comparison() -> ResponseReturnValue:
    """The ranked providers of one corridor at an amount sent or received, the charts, every corridor."""
    catalog = current_service().data.catalog
    state, error = _state(request.args, catalog) if catalog.corridors else ({}, None)
    page = render_template(
        "page.html",
        **state,
        error=error,
        payout_methods=PAYOUT_METHODS,
        corridors=_corridors.dump(catalog.corridors),
        countries={f.corridor.countries: f"{f.corridor.source} → {f.corridor.destination}" for f in catalog.corridors},
        cost_history_only=[
            (c.costs.key, f"{c.costs.source_name} → {c.costs.destination_name}")
            for c in catalog.cost_corridors
            if c.costs.key not in catalog.by_countries
        ],
        reference_usd=catalog.dataset.reference_amount_usd,
    )
    return page, 400 if error else 200, _HEADERS


def _state(args: MultiDict[str, str], catalog: Catalog) -> tuple[dict[str, Any], str | None]:
    corridor = args.get("corridor", "").strip().upper() or catalog.corridors[0].corridor.countries
    mode = "receive" if args.get("mode") == "receive" else "send"
    amount, payout = args.get("amount", "").strip(), args.get("payout", "")
    given = (("corridor", corridor), ("receive_amount" if mode == "receive" else "amount", amount), ("payout", payout))
    query = {name: value for name, value in given if value}
    error, priced_at = None, amount
    try:
        known = catalog.corridor(corridor)
    except NoOffers as err:  # a country pair with cost figures and no offers: its cost over time
        costs = err.costs
        return {
            "costs_only": True,
            "countries_key": costs.key,
            "trend": _trend(catalog, costs.key),
            "title": f"{costs.source_name} → {costs.destination_name}",
        }, None
    except (NotServed, AmbiguousCorridor):
        known = None
    try:
        figures = catalog.quotes(**_query.load(query))
    except ValidationError as err:  # shown instead: the corridor, if known, at the reference amount
        name = next(iter(err.messages))
        shown = known.corridor if known else None
        currency = (shown.to_currency if name == "receive_amount" else shown.from_currency) if shown else ""
        error = _SENDER_ERRORS.get(name, "Check the form: one of its values cannot be used.").format(currency=currency)
    except (NotServed, AmbiguousCorridor):
        error = _SENDER_ERRORS["corridor"]
    if error:
        figures, priced_at = known or catalog.corridors[0], ""
    body = _providers.dump(figures)
    pair = figures.corridor
    reference = reference_amount(catalog.dataset, pair.from_currency)
    try:
        history = catalog.rate_history(pair.from_currency, pair.to_currency, interval="week")
        chart = rate_chart(history.points, pair.from_currency, pair.to_currency, history.source)
        rates = {**chart, "source": history.source}
    except NoHistory as err:
        rates = {"missing": str(err)}
    except NotServed:  # a currency with no rate at all (a surveyed corridor paid out in dollars)
        rates = {"missing": f"No rate history for {pair.from_currency}→{pair.to_currency}."}
    mid = figures.mid_market
    sources = catalog.rate_sources(pair.from_currency, pair.to_currency) if mid is not None else []
    return {
        "mid_market": round_significant(mid, 6) if mid is not None else None,
        "mid_sources": "; ".join(f"{code}: {s.source} rate of {display_date(s.date)}" for code, s in sources),
        "paid_in": sorted({p["payoutCurrency"] for p in body["providers"]} - {pair.to_currency}),
        "corridor": body["corridor"],
        "countries_key": pair.countries,
        "surveyed": surveyed_text(figures.surveyed),
        "from_currency": pair.from_currency,
        "to_currency": pair.to_currency,
        "mode": mode,
        "amount": amount,
        "priced_at": priced_at,
        "payout": payout,
        "providers": body["providers"],
        "cost_chart": cost_chart(body["providers"]),
        "trend": _trend(catalog, pair.countries),
        "rate_chart": rates,
        "amount_currency": pair.to_currency if mode == "receive" else pair.from_currency,
        "placeholder": f"{reference * ((figures.mid_market or 0) if mode == 'receive' else 1):,.0f}",
        "reference_text": f"{reference:,.2f} {pair.from_currency}",
        "shown_amount": f"{float(priced_at):,.2f}" if priced_at else "",
        "ask_amount": mode == "receive" and not amount and not error,
    }, error


def _trend(catalog: Catalog, countries: str) -> dict[str, Any] | None:
    try:
        costs = catalog.corridor_costs(countries)
    except NoSurveyData:
        return None
    first, last = costs.periods[0].period, costs.periods[-1].period
    span = f"{first[:4]} {first[4:]} to {last[:4]} {last[4:]}" if first != last else f"{first[:4]} {first[4:]}"
    return {"chart": trend_chart(costs.periods), "sentence": trend_sentence(costs), "span": span}


def trend_sentence(costs: CorridorCosts) -> str:
    """`Sending 200 USD worth from Kenya to Tanzania cost 11.1 % on average in 2025 Q1, 12.2 % in 2025 Q3.`: the
    first and the latest period with a computed average; before it, the same of the World Bank's published ones."""
    route = f"from {costs.source_name} to {costs.destination_name}"

    def said(figures: list[tuple[str, float]]) -> str:
        shown = [figures[0], figures[-1]] if len(figures) > 1 else figures
        return ", ".join(
            f"{round_half_up(value, 1):.1f} % {'on average ' * (i == 0)}in {period[:4]} {period[4:]}"
            for i, (period, value) in enumerate(shown)
        )

    sentences = []
    published = [(p.period, p.published_average) for p in costs.periods if p.published_average is not None]
    if published:
        sentences.append(
            f"The World Bank published that sending {SURVEY_POINT_USD} USD worth {route} cost {said(published)}."
        )
    computed = [p for p in costs.periods if p.computed]
    averaged = [(p.period, p.average) for p in computed if p.average is not None]
    if computed and not averaged:
        sentences.append(f"No service surveyed {route} disclosed its exchange rate, so the survey gives no average.")
    elif averaged:
        lead = "The survey rows held here give" if published else f"Sending {SURVEY_POINT_USD} USD worth {route} cost"
        sentences.append(f"{lead} {said(averaged)}.")
    return " ".join(sentences)


def surveyed_text(surveyed: tuple[str, dt.date | None, dt.date | None] | None) -> str | None:
    """`Surveyed by the World Bank, 2025 Q3, collected 14 Aug – 1 Sep 2025`, or None for the data file's prices."""
    if surveyed is None:
        return None
    period, first, last = surveyed
    text = f"Surveyed by the World Bank, {period[:4]} {period[4:]}"
    if first is None or last is None:  # both, or neither
        return text
    from_month, to_month = MONTHS[first.month - 1], MONTHS[last.month - 1]  # English whatever the locale
    if first == last:
        span = f"{first.day} {from_month} {first.year}"
    elif (first.year, first.month) == (last.year, last.month):
        span = f"{first.day}–{last.day} {to_month} {last.year}"
    elif first.year == last.year:
        span = f"{first.day} {from_month} – {last.day} {to_month} {last.year}"
    else:
        span = f"{first.day} {from_month} {first.year} – {last.day} {to_month} {last.year}"
    return f"{text}, collected {span}"


@bp.get("/assets/<name>")
def asset(name: str) -> ResponseReturnValue:
    if name not in _PAGE_FILES:
        raise NotFound()
    return static_file(_ASSETS, name, "public, max-age=300")
