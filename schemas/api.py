"""Group A dump schemas: snake_case figures, as numbers."""

from typing import Any

from marshmallow import Schema, fields

from corridor.domain.rounding import round_significant
from schemas.costs import SurveyBenchmarkSchema
from schemas.fields import DisplayDate, Rounded, SignificantFigures, meta
from schemas.ranked import RankedEntrySchema

RATE_DIGITS = 6  # significant figures of a series' rates
SERIES_SOURCE = (
    "Where the points come from: ECB, the European Central Bank's reference rates; or Frankfurter, its "
    "daily series, for a pair with a currency the ECB does not publish."
)
_RATE_OF_DAY = (
    "Units of `to` per unit of `from` that day: rate[to] / rate[from] in the source's quotes (the ECB's per "
    "euro, Frankfurter's per US dollar), 6 significant figures."
)


class CorridorSummarySchema(Schema):
    from_currency = fields.String(attribute="corridor.from_currency", **meta("Currency sent.", "USD"))
    to_currency = fields.String(attribute="corridor.to_currency", **meta("Currency received.", "MXN"))
    source = fields.String(attribute="corridor.source", **meta("Sending country.", "United States"))
    destination = fields.String(attribute="corridor.destination", **meta("Receiving country.", "Mexico"))
    source_country = fields.String(
        attribute="corridor.source_country", **meta("Sending country, ISO 3166-1 alpha-3.", "USA")
    )
    destination_country = fields.String(
        attribute="corridor.destination_country", **meta("Receiving country, ISO 3166-1 alpha-3.", "MEX")
    )
    mid_market = SignificantFigures(
        allow_none=True,
        **meta(
            "Interbank mid-market rate, 6 significant figures; null when to_currency has no "
            "rate (a surveyed corridor whose services all pay out in US dollars).",
            18.4215,
        ),
    )
    best_rate = SignificantFigures(
        allow_none=True,
        attribute="best.rate",
        **meta(
            "Rate of the rank-1 provider, to_currency per from_currency, like mid_market: for "
            "one paying out in US dollars, what it pays is worth that at the mid-market rate; "
            "null if it did not disclose its margin, or with no mid_market.",
            18.3441,
        ),
    )
    best_payout_currency = fields.String(
        attribute="best.payout_currency",
        **meta("What the rank-1 provider's recipient gets: to_currency, or USD.", "MXN"),
    )
    best_provider = fields.String(attribute="best.offer.provider", **meta("Name of the rank-1 provider.", "Wise"))
    true_cost_pct = Rounded(
        allow_none=True,
        attribute="best.true_cost_pct",
        **meta(
            "True cost of the rank-1 provider at the reference amount, %; null if no offer disclosed its margin.", 1.49
        ),
    )
    compliance = fields.String(
        allow_none=True,
        attribute="corridor.compliance",
        **meta("Compliance level: Low, Medium or High; null for a corridor only the survey has.", "Low"),
    )
    score = fields.Integer(
        allow_none=True,
        attribute="corridor.score",
        **meta("Corridor score, 0–100; null for a corridor only the survey has.", 91),
    )
    key = fields.String(
        attribute="corridor.key",
        **meta(
            "The currency pair FROM_TO, as /api/providers takes it when no other active corridor "
            "has it; source_country-destination_country always names this one.",
            "USD_MXN",
        ),
    )
    avg_cost_pct = Rounded(
        allow_none=True,
        attribute="avg_cost",
        **meta(
            "Mean true cost of the corridor's offers at the reference amount, %, over those that "
            "disclose their margin; null if none does.",
            6.54,
        ),
    )
    sdg_target_met = fields.Boolean(
        allow_none=True, **meta("avg_cost_pct is at most 3: the UN SDG 10.c target; null with no avg_cost_pct.", False)
    )
    offers_over_5_pct = fields.Integer(**meta("Offers whose true cost at the reference amount exceeds 5 %.", 4))
    prices = fields.String(
        **meta(
            "Where its prices come from: the World Bank survey's period, YYYYQn, or sample "
            "(the data file's illustrative figures).",
            "sample",
        )
    )
    annual_flow_bn = Rounded(
        allow_none=True,
        attribute="corridor.annual_flow_bn",
        **meta(
            "Money sent along the corridor in a year, USD billions, to 1 decimal: flow_source's "
            "figure for flow_year; null where no source has one.",
            52.6,
        ),
        places=1,
    )
    flow_year = fields.Integer(
        allow_none=True,
        attribute="corridor.flow_year",
        **meta(
            "The year of annual_flow_bn where the remittance matrix gives it; null for the data file's figure.", 2021
        ),
    )
    flow_source = fields.String(
        allow_none=True,
        attribute="corridor.flow_source",
        **meta(
            "Where annual_flow_bn comes from: the KNOMAD/World Bank Bilateral Remittance Matrix, "
            "or the data file where the matrix has no figure for the pair; null without a flow.",
            "KNOMAD/World Bank Bilateral Remittance Matrix",
        ),
    )


class RankedProviderSchema(RankedEntrySchema):
    per_offer = ("settlement_minutes", "payout_currency")  # and those read through the offer

    rank = fields.Integer(**meta("Position by true cost, 1 = cheapest.", 1))
    provider = fields.String(attribute="offer.provider", **meta("Provider name.", "Wise"))
    rate = SignificantFigures(
        allow_none=True,
        **meta(
            "Rate given, the corridor's to_currency per source currency: mid-market less the FX "
            "margin, for every offer, whatever its payout_currency (payout_rate is the rate in "
            "that); null if the margin is not disclosed, or to_currency has no rate.",
            18.3441,
        ),
    )
    flat_fee = Rounded(attribute="offer.flat_fee", **meta("Fixed fee in the source currency.", 4.14))
    fee_pct = Rounded(
        attribute="offer.fee_pct",
        **meta(
            "Fee as % of the amount sent. A surveyed offer's fee is max(0, flat_fee + amount × "
            "fee_pct / 100) through its two published price points, so either may be negative.",
            0.0,
        ),
    )
    spread_pct = Rounded(
        allow_none=True,
        **meta(
            "FX margin below mid-market at the amount sent, % (negative: a promotion); null if not disclosed.", 0.42
        ),
    )
    true_cost_pct = Rounded(
        allow_none=True,
        **meta(
            "Fees plus FX margin as % of the amount sent; null if the margin is not disclosed "
            "(such offers rank after every other).",
            2.49,
        ),
    )
    settlement = fields.String(
        allow_none=True,
        attribute="offer.settlement",
        **meta("Typical time to arrive; null if the survey gave none.", "1 hour"),
    )
    payout_methods = fields.List(
        fields.String(), attribute="offer.payout_methods", **meta("Ways the recipient can collect.", ["bank_deposit"])
    )
    svc_score = fields.Integer(
        allow_none=True,
        attribute="offer.svc_score",
        **meta("Service score, 0–100; null for a surveyed offer (the survey scores none).", 94),
    )
    send_amount = Rounded(
        allow_none=True,
        **meta(
            "Amount sent, source currency: `amount`, or the reference amount; with "
            "receive_amount, null when the rate is.",
            200.0,
        ),
    )
    fee_total = Rounded(
        allow_none=True, **meta("max(0, flat_fee + amount × fee_pct / 100), source currency, paid on top.", 1.99)
    )
    recipient_gets = Rounded(
        allow_none=True,
        **meta(
            "amount × rate, in the corridor's to_currency: for an offer paying out in US dollars, what "
            "it pays is worth that at the mid-market rate (payout_amount is the dollars); null when the rate is.",
            3639.48,
        ),
    )
    settlement_minutes = fields.Integer(
        allow_none=True, **meta("Settlement time in minutes; null with no settlement.", 10)
    )
    total_paid = Rounded(
        allow_none=True, **meta("send_amount + fee_total: what the sender pays in all, source currency.", 201.99)
    )
    source = fields.String(
        attribute="offer.source",
        **meta(
            "Where the prices come from: World Bank RPW (the World Bank's Remittance Prices "
            "Worldwide survey) or sample (the data file's illustrative figures).",
            "World Bank RPW",
        ),
    )
    period = fields.String(
        allow_none=True,
        attribute="offer.period",
        **meta("The survey's period, YYYYQn; null for the data file's.", "2025Q3"),
    )
    collected = fields.Date(
        allow_none=True,
        attribute="offer.collected",
        **meta("The day the survey collected the prices, YYYY-MM-DD; null for the data file's.", "2025-08-19"),
    )
    payout_currency = fields.String(
        **meta(
            "What the recipient gets: the corridor's to_currency, or USD where the service pays out in US dollars.",
            "MXN",
        )
    )
    payout_rate = SignificantFigures(
        allow_none=True,
        **meta(
            "For an offer paying out in another currency than to_currency: its rate, payout_currency "
            "per source currency; null for one paying out in to_currency, and when the rate is.",
            0.00759749,
        ),
    )
    payout_amount = Rounded(
        allow_none=True,
        **meta(
            "For an offer paying out in another currency than to_currency: amount × payout_rate, "
            "what arrives in payout_currency; with receive_amount, receive_amount's worth at the "
            "mid-market rate. Null for one paying out in to_currency.",
            192.64,
        ),
    )
    fx_margin_disclosed = fields.Boolean(
        attribute="offer.disclosed",
        **meta(
            "Whether the service disclosed its exchange rate (the survey's `transparent`); "
            "if not, its margin and true cost are unknown.",
            True,
        ),
    )
    firm_type = fields.String(
        allow_none=True,
        attribute="offer.firm_type",
        **meta(
            "The survey's kind of firm: Bank, Money Transfer Operator, Mobile Operator, Post "
            "office…; null for the data file's.",
            "Money Transfer Operator",
        ),
    )
    promotion = fields.Boolean(
        attribute="offer.promotion",
        **meta(
            "The survey noted these prices as a promotion's, a marketing campaign's or a "
            "discount's: by cost, such an offer ranks after every offer at its regular price.",
            False,
        ),
    )
    payment_instrument = fields.String(
        allow_none=True,
        attribute="offer.payment_instrument",
        **meta(
            "How the sender pays, as the survey wrote it (Cash, Debit card, Credit card, Bank account "
            "transfer, Mobile money…); null for the data file's, and where the survey gave none.",
            "Debit card",
        ),
    )
    pickup_method = fields.String(
        allow_none=True,
        attribute="offer.pickup_method",
        **meta(
            "How the recipient collects, as the survey wrote it (Cash, Bank account, Mobile "
            'wallet…); several, of rows alike in all else, joined by "; ". Null for the data '
            "file's, and where the survey gave none.",
            "Bank account",
        ),
    )
    speed = fields.String(
        allow_none=True,
        attribute="offer.speed",
        **meta(
            "The survey's speed, as written (Less than one hour, Same day, Next day, 2 days, 3-5 days, 6 days or "
            "more): settlement is its longest time. Null for the data file's, and where the survey gave none.",
            "Less than one hour",
        ),
    )


class CurrencySchema(Schema):
    code = fields.String(**meta("ISO 4217 currency code.", "MXN"))
    name = fields.String(**meta("English name, from the Unicode CLDR (Babel).", "Mexican Peso"))
    source = fields.String(
        **meta(
            "Where its interbank rate comes from: ECB, Frankfurter, World Bank RPW (implied by the "
            "survey's rows, where neither feed gives it) or data file. The base, USD, takes the newest rates' source.",
            "ECB",
        )
    )
    date = fields.Date(**meta("Day of that rate, YYYY-MM-DD.", "2026-10-30"))


class MidRateSchema(Schema):
    from_currency = fields.String(data_key="from", **meta("Currency sent.", "USD"))
    to_currency = fields.String(data_key="to", **meta("Currency received.", "MXN"))
    ref_rate_a = SignificantFigures(**meta("Consumer reference rate.", 18.4012))
    ref_rate_b = SignificantFigures(**meta("Interbank mid-market rate.", 18.4215))
    updated = DisplayDate(
        **meta("Day of the rates used, `Mon D, YYYY`: the older of the two currencies' rates.", "Oct 30, 2026")
    )


class HistoryPointSchema(Schema):
    date = fields.Date(**meta("A business day of the source, YYYY-MM-DD.", "2026-10-30"))
    rate = SignificantFigures(RATE_DIGITS, **meta(_RATE_OF_DAY, 18.9077))


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
    from_currency = fields.String(data_key="from", **meta("Currency sent.", "USD"))
    to_currency = fields.String(data_key="to", **meta("Currency received.", "MXN"))
    source = fields.String(**meta(SERIES_SOURCE, "ECB"))
    interval = fields.String(**meta("day, week or month: which business days are listed.", "day"))
    start = fields.Date(**meta("First day asked for (or defaulted), YYYY-MM-DD.", "2025-10-30"))
    end = fields.Date(**meta("Last day asked for (or defaulted), YYYY-MM-DD.", "2026-10-30"))
    points = SeriesPoints(**meta("One point per listed business day, oldest first."))


class BenchmarkCorridorSchema(Schema):
    key = fields.String(attribute="corridor.key", **meta("Corridor key FROM_TO.", "SGD_IDR"))
    avg_cost_pct = Rounded(attribute="avg_cost", **meta("Its mean true cost at the reference amount, %.", 2.77))


class BenchmarkFiguresSchema(Schema):
    corridor_count = fields.Integer(attribute="count", **meta("Active corridors measured.", 19))
    avg_cost_pct = Rounded(
        allow_none=True,
        attribute="avg_cost",
        **meta("Simple mean of the corridors' mean true costs, %; null with no active corridor.", 4.6),
    )
    weighted_avg_cost_pct = Rounded(
        allow_none=True,
        attribute="weighted_avg_cost",
        **meta(
            "The flow-weighted average: the corridors' mean true costs weighted by the money sent in "
            "each (annual_flow_bn, the remittance matrix's where it has the pair), %; closer to what senders pay in "
            "all than the simple mean. Null when every flow is 0 or no corridor is active.",
            5.2,
        ),
    )
    smart_avg_cost_pct = Rounded(
        allow_none=True,
        attribute="smart_avg_cost",
        **meta(
            "Mean over corridors of their three cheapest offers' mean true cost, %; null with no active corridor.", 2.87
        ),
    )
    corridors_meeting_target = fields.Integer(**meta("Corridors whose avg_cost_pct is at most 3.", 2))
    corridors_with_offer_over_5_pct = fields.Integer(**meta("Corridors with at least one offer above 5 %.", 15))
    cheapest = fields.Nested(
        BenchmarkCorridorSchema,
        allow_none=True,
        **meta("The corridor with the lowest avg_cost_pct; null with no active corridor."),
    )
    costliest = fields.Nested(
        BenchmarkCorridorSchema,
        allow_none=True,
        **meta("The corridor with the highest avg_cost_pct; null with no active corridor."),
    )


class BenchmarkSchema(BenchmarkFiguresSchema):
    prices = fields.String(
        **meta(
            "The corridors the figures above count: surveyed (those the World Bank surveyed) whenever "
            "the survey is imported, or sample (the data file's) when it is not. The two are never pooled.",
            "sample",
        )
    )
    sample = fields.Nested(
        BenchmarkFiguresSchema,
        allow_none=True,
        **meta(
            "The same figures over the corridors with sample prices, when the figures above are "
            "the surveyed ones; null when they are the sample ones."
        ),
    )
    survey = fields.Nested(
        SurveyBenchmarkSchema,
        allow_none=True,
        **meta(
            "The World Bank survey's latest period, by its own method (/api/costs/global has "
            "every period); null when no survey was imported."
        ),
    )
