"""Query schemas of both groups: loaded per request, expanded into OpenAPI parameters.

A schema may set `required_if_any`: when any of its parameters but a page's (`limit`, `cursor`) is given, these
become required (Group B's `from`/`to` pair; Group B's `corridor` before `amount`, `payout` or `sort`); `in_order`: two
parameters, the first not after the second (a range); and `exclusive`: a parameter, the ones it cannot be given with,
and what to say then (corridor/api/queries.py reads them).
"""

from typing import Any

from marshmallow import Schema, fields, validate

from corridor.domain.history import INTERVALS
from corridor.domain.model import PAYOUT_METHODS
from corridor.domain.paging import MAX_PAGE
from corridor.domain.pricing import SORT_ORDERS
from schemas.common import described
from schemas.fields import (
    Amount,
    Cursor,
    PageSize,
    QueryDate,
    ReceiveAmount,
    corridor_key,
    country_code,
    currency_code,
    survey_period,
)

FORMATS = ("json", "csv")


def _one_of(choices: tuple) -> validate.OneOf:
    return validate.OneOf(choices, error="must be one of: {choices}.")


def _format(lines: str, example: str | None = None, csv_operation: bool = True) -> fields.String:
    """`format`: json, or csv written in `lines`; `csv_operation`: the endpoint has a .csv twin."""
    also = " A generated client gets the file from the .csv operation instead." if csv_operation else ""
    field = fields.String(load_default="json", validate=_one_of(FORMATS))
    return described(field, example)(f"json (default), or csv: {lines}, as a file to save.{also}")


class NoQuery(Schema):
    """An endpoint that takes no query parameters."""


PAGE_PARAMETERS = ("limit", "cursor")
AMOUNTS = ("amount", "receive_amount")  # a quote's free-form amounts, sent or received
# the document's word on a page's links, for the operations that take `limit`
LINK_HEADER = {
    "Link": {
        "schema": {"type": "string"},
        "description": (
            'With `limit`: the first page\'s URL (rel="first") and, while more remain, the next one\'s (rel="next"), '
            "relative to the service, RFC 8288."
        ),
    }
}


class PageQuery(Schema):
    """A list of corridors, whole, or a page of it: `limit` corridors after the `cursor` the previous page gave."""

    limit = described(
        PageSize(
            validate=validate.Range(min=1, max=MAX_PAGE, error="must be a whole number from {min} to {max}."),
            error_messages={"invalid": f"must be a whole number from 1 to {MAX_PAGE}."},
        )
    )(f"""
        At most this many corridors (1–{MAX_PAGE}), by id; the answer's Link header (rel="next"), and Group B's `next`,
        give the next page while more remain. Without it the list is whole.""")
    # no example for either: one would be filled in beside `from`/`to` or `corridor`, which a page does not go with
    cursor = described(Cursor())("""
        Where a page starts: the cursor in the previous page's Link header or `next`, opaque; it stays valid when the
        data is refreshed.""")


def _not_paged_with(*others: str) -> tuple:
    rule = f"cannot be given with {' or '.join(others)}: a page is of the whole list."
    return tuple((name, others, rule) for name in PAGE_PARAMETERS)


# Swagger UI's "Try it out" fills in every parameter's example: of two parameters that exclude each other only one
# has an example (`amount`, not `receive_amount`; history's `start` and `end`, not `date`), so that what it sends
# without an edit is answered 200 (tests/test_docs_browser.py clicks through every operation); the other's is a
# `quoted_example`, which the document leaves out (schemathesis reads even an `x-example`) and a 400 still quotes
class QuoteOptions(Schema):
    """How to price and order a corridor's providers."""

    amount = described(Amount(), "1000")("""
        Send amount in the source currency: a plain decimal above 0, at most 1000000000, at most 2 decimals; default the
        reference amount.""")
    receive_amount = described(ReceiveAmount(), quoted_example="5000")("""
        Instead of amount: what the recipient must get, in the destination currency (at most 1000000000000, at most 2
        decimals); each provider is priced at the amount that delivers it, and sort=cost ranks by total paid. Example:
        5000.""")
    payout = described(fields.String(validate=_one_of(PAYOUT_METHODS)), "cash_pickup")("""
        Keep only providers offering this payout method.""")
    sort = described(fields.String(load_default="cost", validate=_one_of(tuple(SORT_ORDERS))), "speed")("""
        cost (default): cheapest first; speed: fastest first, then cost; score: best service score first, then cost.""")

    exclusive = (
        ("receive_amount", ("amount",), "cannot be given with amount; give what is sent or what is received."),
    )


def _corridor(example: str = "USD_MXN", currencies: str = "USD_MXN", more: str = "", **kwargs: Any) -> fields.String:
    return described(corridor_key(**kwargs), example)(f"""
        The corridor, any case: its countries SRC-DST (ISO 3166-1 alpha-3, KEN-TZA), or its currencies FROM_TO
        ({currencies}) where no other active corridor has them{more}.""")


class _CorridorRequired(Schema):
    corridor = _corridor(required=True)


class _CorridorOptional(Schema):
    corridor = _corridor(more="; omit it (and the options) for every corridor")


# marshmallow orders inherited fields from the last base to the first: `corridor` comes first
class CorridorQuery(QuoteOptions, _CorridorRequired):
    """Group A `/api/providers`: one corridor, required, and the quote options."""


class OptionalCorridorQuery(PageQuery, QuoteOptions, _CorridorOptional):
    """Group B `/api/poc/providers`: one corridor with the quote options, or every corridor's, whole or by pages."""

    required_if_any = ("corridor",)
    exclusive = QuoteOptions.exclusive + _not_paged_with("corridor")


class CurrencyPairQuery(Schema):
    """Group A `/api/midrate`: any pair of currencies in the rate tables."""

    from_currency = described(currency_code(data_key="from", required=True), "USD")("Currency sent, any case.")
    to_currency = described(currency_code(data_key="to", required=True), "MXN")("Currency received, any case.")


class _OptionalPair(Schema):
    from_currency = described(currency_code(data_key="from"), "USD")("Currency sent, any case.")
    to_currency = described(currency_code(data_key="to"), "MXN")("Currency received, any case.")


class OptionalCurrencyPairQuery(PageQuery, _OptionalPair):
    """Group B `/api/poc/corridors`: `from` and `to` pick one corridor; giving one makes both required; without them,
    every corridor, whole or by pages."""

    required_if_any = ("from", "to")
    exclusive = _not_paged_with("from", "to")


class HistoryQuery(CurrencyPairQuery):
    """`/api/history` and `/api/poc/history`: a pair's rates over a range, or on one date."""

    start = described(QueryDate(), "2025-10-30")("First day, YYYY-MM-DD; default: end minus 365 days.")
    end = described(QueryDate(), "2026-10-30")("Last day, YYYY-MM-DD; default: the last day of the history.")
    date = described(QueryDate(), quoted_example="2026-10-25")("""
        Instead of start and end: the rate in force that day, from the last business day on or before it. Example:
        2026-10-25.""")
    interval = described(fields.String(load_default="day", validate=_one_of(tuple(INTERVALS))), "month")("""
        day (default): every business day; week: the last business day of each ISO week; month: the last business day
        of each month.""")
    format = _format("`date,rate` lines", "csv")

    in_order = ("start", "end")  # then given its defaults within the history served (corridor/api/queries.py)
    exclusive = (("date", ("start", "end"), "cannot be given with start or end; give a date, or a range."),)


class PeriodRange(Schema):
    """`/api/costs/global`: the survey's periods from `start` to `end`, either open."""

    in_order = ("start", "end")

    start = described(survey_period(), "2025Q1")("First period, YYYYQn; default: the first surveyed.")
    end = described(survey_period(), "2025Q3")("Last period, YYYYQn; default: the last surveyed.")


class _SurveyedCorridor(Schema):
    corridor = _corridor(example="KEN-TZA", currencies="KES_TZS", required=True)


class CostsQuery(PeriodRange, _SurveyedCorridor):
    """`/api/costs` and `/api/poc/costs`: one corridor's survey averages by period, JSON or CSV."""

    format = _format("one line per period", "csv")


class CostCorridorsQuery(PageQuery):
    """`/api/costs/corridors`: every corridor with any cost figure, or those from or to a country; whole or a page."""

    from_country = described(country_code(), "USA")("""
        Only the corridors sent from this country (ISO 3166-1 alpha-3, any case).""")
    to_country = described(country_code())(
        "Only the corridors received in this country (ISO 3166-1 alpha-3, any case)."
    )
    format = _format("one line per corridor", csv_operation=False)
