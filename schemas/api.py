"""Group A dump schemas: snake_case figures, as numbers."""

from typing import Any

from marshmallow import Schema, fields

from corridor.domain.rounding import round_significant
from schemas import common
from schemas.common import described
from schemas.costs import SurveyBenchmarkSchema
from schemas.fields import DisplayDate, Rounded, SignificantFigures
from schemas.ranked import RankedEntrySchema

RATE_DIGITS = 6  # significant figures of a series' rates
SERIES_SOURCE = (
    "Where the points come from: ECB, the European Central Bank's reference rates; or Frankfurter, its daily series, "
    "for a pair with a currency the ECB does not publish."
)
_RATE_OF_DAY = (
    "Units of `to` per unit of `from` that day: rate[to] / rate[from] in the source's quotes (the ECB's per euro, "
    "Frankfurter's per US dollar), 6 significant figures."
)


class CorridorSummarySchema(Schema):
    from_currency = described(fields.String(attribute="corridor.from_currency"), "Currency sent.", "USD")
    to_currency = described(fields.String(attribute="corridor.to_currency"), "Currency received.", "MXN")
    source = described(fields.String(attribute="corridor.source"), "Sending country.", "United States")
    destination = described(fields.String(attribute="corridor.destination"), "Receiving country.", "Mexico")
    source_country = common.SOURCE_COUNTRY
    destination_country = common.DESTINATION_COUNTRY
    mid_market = described(
        SignificantFigures(allow_none=True),
        "Interbank mid-market rate, 6 significant figures; null when to_currency has no rate (a surveyed corridor "
        "whose services all pay out in US dollars).",
        18.4215,
    )
    best_rate = described(
        SignificantFigures(allow_none=True, attribute="best.rate"),
        "Rate of the rank-1 provider, to_currency per from_currency, like mid_market: for one paying out in US "
        "dollars, what it pays is worth that at the mid-market rate; null if it did not disclose its margin, or with "
        "no mid_market.",
        18.3441,
    )
    best_payout_currency = described(
        fields.String(attribute="best.payout_currency"),
        "What the rank-1 provider's recipient gets: to_currency, or USD.",
        "MXN",
    )
    best_provider = described(fields.String(attribute="best.offer.provider"), "Name of the rank-1 provider.", "Wise")
    true_cost_pct = described(
        Rounded(allow_none=True, attribute="best.true_cost_pct"),
        "True cost of the rank-1 provider at the reference amount, %; null if no offer disclosed its margin.",
        1.49,
    )
    compliance = common.COMPLIANCE
    score = described(
        fields.Integer(allow_none=True, attribute="corridor.score"),
        "Corridor score, 0–100; null for a corridor only the survey has.",
        91,
    )
    key = described(
        fields.String(attribute="corridor.key"),
        "The currency pair FROM_TO, as /api/providers takes it when no other active corridor has it; "
        "source_country-destination_country always names this one.",
        "USD_MXN",
    )
    avg_cost_pct = described(
        Rounded(allow_none=True, attribute="avg_cost"),
        "Mean true cost of the corridor's offers at the reference amount, %, over those that disclose their margin; "
        "null if none does.",
        6.54,
    )
    sdg_target_met = described(
        fields.Boolean(allow_none=True),
        "avg_cost_pct is at most 3: the UN SDG 10.c target; null with no avg_cost_pct.",
        False,
    )
    offers_over_5_pct = described(fields.Integer(), "Offers whose true cost at the reference amount exceeds 5 %.", 4)
    prices = common.PRICES
    annual_flow_bn = described(
        Rounded(allow_none=True, attribute="corridor.annual_flow_bn", places=1),
        "Money sent along the corridor in a year, USD billions, to 1 decimal: flow_source's figure for flow_year; null "
        "where no source has one.",
        52.6,
    )
    flow_year = described(
        fields.Integer(allow_none=True, attribute="corridor.flow_year"),
        "The year of annual_flow_bn where the remittance matrix gives it; null for the data file's figure.",
        2021,
    )
    flow_source = described(
        fields.String(allow_none=True, attribute="corridor.flow_source"),
        "Where annual_flow_bn comes from: the KNOMAD/World Bank Bilateral Remittance Matrix, or the data file where "
        "the matrix has no figure for the pair; null without a flow.",
        "KNOMAD/World Bank Bilateral Remittance Matrix",
    )


class RankedProviderSchema(RankedEntrySchema):
    per_offer = ("settlement_minutes", "payout_currency")  # and those read through the offer

    rank = common.RANK
    provider = described(fields.String(attribute="offer.provider"), "Provider name.", "Wise")
    rate = described(
        SignificantFigures(allow_none=True),
        "Rate given, the corridor's to_currency per source currency: mid-market less the FX margin, for every offer, "
        "whatever its payout_currency (payout_rate is the rate in that); null if the margin is not disclosed, or "
        "to_currency has no rate.",
        18.3441,
    )
    flat_fee = described(Rounded(attribute="offer.flat_fee"), "Fixed fee in the source currency.", 4.14)
    fee_pct = described(
        Rounded(attribute="offer.fee_pct"),
        "Fee as % of the amount sent. A surveyed offer's fee is max(0, flat_fee + amount × fee_pct / 100) through its "
        "two published price points, so either may be negative.",
        0.0,
    )
    spread_pct = described(
        Rounded(allow_none=True),
        "FX margin below mid-market at the amount sent, % (negative: a promotion); null if not disclosed.",
        0.42,
    )
    true_cost_pct = described(
        Rounded(allow_none=True),
        "Fees plus FX margin as % of the amount sent; null if the margin is not disclosed (such offers rank after "
        "every other).",
        2.49,
    )
    settlement = described(
        fields.String(allow_none=True, attribute="offer.settlement"),
        "Typical time to arrive; null if the survey gave none.",
        "1 hour",
    )
    payout_methods = described(
        fields.List(fields.String(), attribute="offer.payout_methods"),
        "Ways the recipient can collect.",
        ["bank_deposit"],
    )
    svc_score = described(
        fields.Integer(allow_none=True, attribute="offer.svc_score"),
        "Service score, 0–100; null for a surveyed offer (the survey scores none).",
        94,
    )
    send_amount = common.SEND_AMOUNT
    fee_total = described(
        Rounded(allow_none=True), "max(0, flat_fee + amount × fee_pct / 100), source currency, paid on top.", 1.99
    )
    recipient_gets = described(
        Rounded(allow_none=True),
        "amount × rate, in the corridor's to_currency: for an offer paying out in US dollars, what it pays is worth "
        "that at the mid-market rate (payout_amount is the dollars); null when the rate is.",
        3639.48,
    )
    settlement_minutes = described(
        fields.Integer(allow_none=True), "Settlement time in minutes; null with no settlement.", 10
    )
    total_paid = described(
        Rounded(allow_none=True), "send_amount + fee_total: what the sender pays in all, source currency.", 201.99
    )
    source = common.PRICES_SOURCE
    period = common.SURVEY_PERIOD
    collected = common.COLLECTED
    payout_currency = described(
        fields.String(),
        "What the recipient gets: the corridor's to_currency, or USD where the service pays out in US dollars.",
        "MXN",
    )
    payout_rate = described(
        SignificantFigures(allow_none=True),
        "For an offer paying out in another currency than to_currency: its rate, payout_currency per source currency; "
        "null for one paying out in to_currency, and when the rate is.",
        0.00759749,
    )
    payout_amount = described(
        Rounded(allow_none=True),
        "For an offer paying out in another currency than to_currency: amount × payout_rate, what arrives in "
        "payout_currency; with receive_amount, receive_amount's worth at the mid-market rate. Null for one paying out "
        "in to_currency.",
        192.64,
    )
    fx_margin_disclosed = described(
        fields.Boolean(attribute="offer.disclosed"),
        "Whether the service disclosed its exchange rate (the survey's `transparent`); if not, its margin and true "
        "cost are unknown.",
        True,
    )
    firm_type = common.FIRM_TYPE
    promotion = described(
        fields.Boolean(attribute="offer.promotion"),
        "The survey noted these prices as a promotion's, a marketing campaign's or a discount's: by cost, such an "
        "offer ranks after every offer at its regular price.",
        False,
    )
    payment_instrument = common.PAYMENT_INSTRUMENT
    pickup_method = common.PICKUP_METHOD
    speed = common.SPEED


class CurrencySchema(Schema):
    code = described(fields.String(), "ISO 4217 currency code.", "MXN")
    name = described(fields.String(), "English name, from the Unicode CLDR (Babel).", "Mexican Peso")
    source = described(
        fields.String(),
        "Where its interbank rate comes from: ECB, Frankfurter, World Bank RPW (implied by the survey's rows, where "
        "neither feed gives it) or data file. The base, USD, takes the newest rates' source.",
        "ECB",
    )
    date = described(fields.Date(), "Day of that rate, YYYY-MM-DD.", "2026-10-30")


class MidRateSchema(Schema):
    from_currency = described(fields.String(data_key="from"), "Currency sent.", "USD")
    to_currency = described(fields.String(data_key="to"), "Currency received.", "MXN")
    ref_rate_a = described(SignificantFigures(), "Consumer reference rate.", 18.4012)
    ref_rate_b = described(SignificantFigures(), "Interbank mid-market rate.", 18.4215)
    updated = described(
        DisplayDate(), "Day of the rates used, `Mon D, YYYY`: the older of the two currencies' rates.", "Oct 30, 2026"
    )


class HistoryPointSchema(Schema):
    date = described(fields.Date(), "A business day of the source, YYYY-MM-DD.", "2026-10-30")
    rate = described(SignificantFigures(RATE_DIGITS), _RATE_OF_DAY, 18.9077)


class SeriesPoints(fields.List):
    """A series' points as HistoryPointSchema dumps them, in one pass rather than a nested schema per point: a range not
    asked before is built, and every day since 1999 took 49 ms against 106 (`python -m bench.history_dump`,
    2026-11-28); the document still shows each point's schema."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(fields.Nested(HistoryPointSchema), **kwargs)

    def _serialize(self, value: Any, attr: Any, obj: Any, **kwargs: Any) -> list[dict] | None:
        if value is None:
            return None
        return [{"date": point.date.isoformat(), "rate": round_significant(point.rate, RATE_DIGITS)} for point in value]


class HistorySchema(Schema):
    from_currency = described(fields.String(data_key="from"), "Currency sent.", "USD")
    to_currency = described(fields.String(data_key="to"), "Currency received.", "MXN")
    source = described(fields.String(), SERIES_SOURCE, "ECB")
    interval = described(fields.String(), "day, week or month: which business days are listed.", "day")
    start = described(fields.Date(), "First day asked for (or defaulted), YYYY-MM-DD.", "2025-10-30")
    end = described(fields.Date(), "Last day asked for (or defaulted), YYYY-MM-DD.", "2026-10-30")
    points = described(SeriesPoints(), "One point per listed business day, oldest first.")


class BenchmarkCorridorSchema(Schema):
    key = described(fields.String(attribute="corridor.key"), "Corridor key FROM_TO.", "SGD_IDR")
    avg_cost_pct = described(Rounded(attribute="avg_cost"), "Its mean true cost at the reference amount, %.", 2.77)


class BenchmarkFiguresSchema(Schema):
    corridor_count = described(fields.Integer(attribute="count"), "Active corridors measured.", 19)
    avg_cost_pct = described(
        Rounded(allow_none=True, attribute="avg_cost"),
        "Simple mean of the corridors' mean true costs, %; null with no active corridor.",
        4.6,
    )
    weighted_avg_cost_pct = described(
        Rounded(allow_none=True, attribute="weighted_avg_cost"),
        "The flow-weighted average: the corridors' mean true costs weighted by the money sent in each (annual_flow_bn, "
        "the remittance matrix's where it has the pair), %; closer to what senders pay in all than the simple mean. "
        "Null when every flow is 0 or no corridor is active.",
        5.2,
    )
    smart_avg_cost_pct = described(
        Rounded(allow_none=True, attribute="smart_avg_cost"),
        "Mean over corridors of their three cheapest offers' mean true cost, %; null with no active corridor.",
        2.87,
    )
    corridors_meeting_target = described(fields.Integer(), "Corridors whose avg_cost_pct is at most 3.", 2)
    corridors_with_offer_over_5_pct = described(fields.Integer(), "Corridors with at least one offer above 5 %.", 15)
    cheapest = described(
        fields.Nested(BenchmarkCorridorSchema, allow_none=True),
        "The corridor with the lowest avg_cost_pct; null with no active corridor.",
    )
    costliest = described(
        fields.Nested(BenchmarkCorridorSchema, allow_none=True),
        "The corridor with the highest avg_cost_pct; null with no active corridor.",
    )


class BenchmarkSchema(BenchmarkFiguresSchema):
    prices = described(
        fields.String(),
        "The corridors the figures above count: surveyed (those the World Bank surveyed) whenever the survey is "
        "imported, or sample (the data file's) when it is not. The two are never pooled.",
        "sample",
    )
    sample = described(
        fields.Nested(BenchmarkFiguresSchema, allow_none=True),
        "The same figures over the corridors with sample prices, when the figures above are the surveyed ones; null "
        "when they are the sample ones.",
    )
    survey = described(
        fields.Nested(SurveyBenchmarkSchema, allow_none=True),
        "The World Bank survey's latest period, by its own method (/api/costs/global has every period); null when no "
        "survey was imported.",
    )
