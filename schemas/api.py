"""Group A dump schemas: snake_case figures, as numbers."""

from typing import Any

from marshmallow import Schema, fields

from corridor.domain.rounding import round_significant
from schemas import common
from schemas.common import described
from schemas.costs import SurveyBenchmarkSchema
from schemas.fields import DisplayDate, Rounded
from schemas.ranked import RankedEntrySchema

RATE_DIGITS = 6  # significant figures of a rate


class CorridorSummarySchema(Schema):
    from_currency = described(fields.String(attribute="corridor.from_currency"), "USD")("Currency sent.")
    to_currency = described(fields.String(attribute="corridor.to_currency"), "MXN")("Currency received.")
    source = described(fields.String(attribute="corridor.source"), "United States")("Sending country.")
    destination = described(fields.String(attribute="corridor.destination"), "Mexico")("Receiving country.")
    source_country = common.SOURCE_COUNTRY
    destination_country = common.DESTINATION_COUNTRY
    mid_market = described(Rounded(digits=RATE_DIGITS, allow_none=True), 18.4215)("""
        Interbank mid-market rate, 6 significant figures; null when to_currency has no rate (a surveyed corridor whose
        services all pay out in US dollars).""")
    best_rate = described(Rounded(digits=RATE_DIGITS, allow_none=True, attribute="best.rate"), 18.3441)("""
        Rate of the rank-1 provider, to_currency per from_currency, like mid_market: for one paying out in US dollars,
        what it pays is worth that at the mid-market rate; null if it did not disclose its margin, or with no
        mid_market.""")
    best_payout_currency = described(fields.String(attribute="best.payout_currency"), "MXN")("""
        What the rank-1 provider's recipient gets: to_currency, or USD.""")
    best_provider = described(fields.String(attribute="best.offer.provider"), "Wise")("Name of the rank-1 provider.")
    true_cost_pct = described(Rounded(allow_none=True, attribute="best.true_cost_pct"), 1.49)("""
        True cost of the rank-1 provider at the reference amount, %; null if no offer disclosed its margin.""")
    compliance = common.COMPLIANCE
    score = described(fields.Integer(allow_none=True, attribute="corridor.score"), 91)("""
        Corridor score, 0–100; null for a corridor only the survey has.""")
    key = common.KEY
    avg_cost_pct = described(Rounded(allow_none=True, attribute="avg_cost"), 6.54)("""
        Mean true cost of the corridor's offers at the reference amount, %, over those that disclose their margin; null
        if none does.""")
    sdg_target_met = described(fields.Boolean(allow_none=True), False)("""
        avg_cost_pct is at most 3: the UN SDG 10.c target; null with no avg_cost_pct.""")
    offers_over_5_pct = described(fields.Integer(), 4)("Offers whose true cost at the reference amount exceeds 5 %.")
    prices = common.PRICES
    annual_flow_bn = described(Rounded(allow_none=True, attribute="corridor.annual_flow_bn", places=1), 52.6)("""
        Money sent along the corridor in a year, USD billions, to 1 decimal: flow_source's figure for flow_year; null
        where no source has one.""")
    flow_year = common.FLOW_YEAR
    flow_source = common.FLOW_SOURCE


class RankedProviderSchema(RankedEntrySchema):
    per_offer = ("settlement_minutes", "payout_currency")  # and those read through the offer
    rank = described(fields.Integer(), 1)("Position by true cost, 1 = cheapest.")
    provider = described(fields.String(attribute="offer.provider"), "Wise")("Provider name.")
    rate = described(Rounded(digits=RATE_DIGITS, allow_none=True), 18.3441)("""
        Rate given, the corridor's to_currency per source currency: mid-market less the FX margin, for every offer,
        whatever its payout_currency (payout_rate is the rate in that); null if the margin is not disclosed, or
        to_currency has no rate.""")
    flat_fee = described(Rounded(attribute="offer.flat_fee"), 4.14)("Fixed fee in the source currency.")
    fee_pct = described(Rounded(attribute="offer.fee_pct"), 0.0)("""
        Fee as % of the amount sent. A surveyed offer's fee is max(0, flat_fee + amount × fee_pct / 100) through its two
        published price points, so either may be negative.""")
    spread_pct = described(Rounded(allow_none=True), 0.42)("""
        FX margin below mid-market at the amount sent, % (negative: a promotion); null if not disclosed.""")
    true_cost_pct = described(Rounded(allow_none=True), 2.49)("""
        Fees plus FX margin as % of the amount sent; null if the margin is not disclosed (such offers rank after every
        other).""")
    settlement = described(fields.String(allow_none=True, attribute="offer.settlement"), "1 hour")("""
        Typical time to arrive; null if the survey gave none.""")
    payout_methods = described(fields.List(fields.String(), attribute="offer.payout_methods"), ["bank_deposit"])("""
        Ways the recipient can collect.""")
    svc_score = described(fields.Integer(allow_none=True, attribute="offer.svc_score"), 94)("""
        Service score, 0–100; null for a surveyed offer (the survey scores none).""")
    send_amount = described(Rounded(allow_none=True), 200.0)("""
        Amount sent, source currency: `amount`, or the reference amount; with receive_amount, null when the rate is.""")
    fee_total = described(Rounded(allow_none=True), 1.99)("""
        max(0, fixed fee + amount × fee % / 100), source currency, paid on top.""")
    recipient_gets = described(Rounded(allow_none=True), 3639.48)("""
        amount × rate, in the corridor's destination currency: for an offer paying out in US dollars, what it pays is
        worth that at the mid-market rate (the payout amount is the dollars); null when the rate is.""")
    settlement_minutes = described(fields.Integer(allow_none=True), 10)("Settlement time in minutes; null if unknown.")
    total_paid = described(Rounded(allow_none=True), 201.99)("""
        The amount sent plus the fee: what the sender pays in all, source currency.""")
    source = described(fields.String(attribute="offer.source"), "World Bank RPW")("""
        Where the prices come from: World Bank RPW (the World Bank's Remittance Prices Worldwide survey) or sample (the
        data file's illustrative figures).""")
    period = described(fields.String(allow_none=True, attribute="offer.period"), "2025Q3")("""
        The survey's period, YYYYQn; null for the data file's.""")
    collected = described(fields.Date(allow_none=True, attribute="offer.collected"), "2025-08-19")("""
        The day the survey collected the prices, YYYY-MM-DD; null for the data file's.""")
    payout_currency = described(fields.String(), "MXN")("""
        What the recipient gets: the corridor's destination currency, or USD where the service pays out in US
        dollars.""")
    payout_rate = described(Rounded(digits=RATE_DIGITS, allow_none=True), 0.00759749)("""
        For an offer paying out in another currency than the destination's: its rate, payout currency per source
        currency, 6 significant figures; null for one paying out in the destination currency, and when the rate is.""")
    payout_amount = described(Rounded(allow_none=True), 192.64)("""
        For an offer paying out in another currency than the destination's: amount × payout rate, what arrives in the
        payout currency; with receive_amount, receive_amount's worth at the mid-market rate. Null for one paying out in
        the destination currency.""")
    fx_margin_disclosed = described(fields.Boolean(attribute="offer.disclosed"), True)("""
        Whether the service disclosed its exchange rate (the survey's `transparent`); if not, its margin and true cost
        are unknown.""")
    firm_type = described(fields.String(allow_none=True, attribute="offer.firm_type"), "Money Transfer Operator")("""
        The survey's kind of firm: Bank, Money Transfer Operator, Mobile Operator, Post office…; null for the data
        file's.""")
    promotion = described(fields.Boolean(attribute="offer.promotion"), False)("""
        The survey noted these prices as a promotion's, a marketing campaign's or a discount's: by cost, such an offer
        ranks after every offer at its regular price.""")
    payment_instrument = described(fields.String(allow_none=True, attribute="offer.payment_instrument"), "Debit card")(
        """How the sender pays, as the survey wrote it (Cash, Debit card, Credit card, Bank account transfer, Mobile
        money…); null for the data file's, and where the survey gave none."""
    )
    pickup_method = described(fields.String(allow_none=True, attribute="offer.pickup_method"), "Bank account")("""
        How the recipient collects, as the survey wrote it (Cash, Bank account, Mobile wallet…); several, of rows alike
        in all else, joined by "; ". Null for the data file's, and where the survey gave none.""")
    speed = described(fields.String(allow_none=True, attribute="offer.speed"), "Less than one hour")("""
        The survey's speed, as written (Less than one hour, Same day, Next day, 2 days, 3-5 days, 6 days or more):
        settlement is its longest time. Null for the data file's, and where the survey gave none.""")


class CurrencySchema(Schema):
    code = described(fields.String(), "MXN")("ISO 4217 currency code.")
    name = described(fields.String(), "Mexican Peso")("English name, from the Unicode CLDR (Babel).")
    source = described(fields.String(), "ECB")("""
        Where its interbank rate comes from: ECB, Frankfurter, World Bank RPW (implied by the survey's rows, where
        neither feed gives it) or data file. The base, USD, takes the newest rates' source.""")
    date = described(fields.Date(), "2026-10-30")("Day of that rate, YYYY-MM-DD.")


class MidRateSchema(Schema):
    from_currency = described(fields.String(data_key="from"), "USD")("Currency sent.")
    to_currency = described(fields.String(data_key="to"), "MXN")("Currency received.")
    ref_rate_a = described(Rounded(digits=RATE_DIGITS), 18.4012)("Consumer reference rate.")
    ref_rate_b = described(Rounded(digits=RATE_DIGITS), 18.4215)("Interbank mid-market rate.")
    updated = described(DisplayDate(), "Oct 30, 2026")("""
        Day of the rates used, `Mon D, YYYY`: the older of the two currencies' rates.""")


class HistoryPointSchema(Schema):
    date = described(fields.Date(), "2026-10-30")("A business day of the source, YYYY-MM-DD.")
    rate = described(Rounded(digits=RATE_DIGITS), 18.9077)("""
        Units of `to` per unit of `from` that day: rate[to] / rate[from] in the source's quotes (the ECB's per euro,
        Frankfurter's per US dollar), 6 significant figures.""")


class SeriesPoints(fields.List):
    """A series' points as HistoryPointSchema dumps them, in one pass: every day since 1999 in 49 ms rather than 106
    (`python -m bench.history_dump`, 2026-11-28); the document still shows each point's schema."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(fields.Nested(HistoryPointSchema), **kwargs)

    def _serialize(self, value: Any, attr: Any, obj: Any, **kwargs: Any) -> list[dict]:
        return [{"date": point.date.isoformat(), "rate": round_significant(point.rate, RATE_DIGITS)} for point in value]


class HistorySchema(Schema):
    from_currency = described(fields.String(data_key="from"), "USD")("Currency sent.")
    to_currency = described(fields.String(data_key="to"), "MXN")("Currency received.")
    source = described(fields.String(), "ECB")("""
        Where the points come from: ECB, the European Central Bank's reference rates; or Frankfurter, its daily series,
        for a pair with a currency the ECB does not publish.""")
    interval = described(fields.String(), "day")("day, week or month: which business days are listed.")
    start = described(fields.Date(), "2025-10-30")("First day asked for (or defaulted), YYYY-MM-DD.")
    end = described(fields.Date(), "2026-10-30")("Last day asked for (or defaulted), YYYY-MM-DD.")
    points = described(SeriesPoints())("One point per listed business day, oldest first.")


class BenchmarkCorridorSchema(Schema):
    key = described(fields.String(attribute="corridor.key"), "SGD_IDR")("Corridor key FROM_TO.")
    avg_cost_pct = described(Rounded(attribute="avg_cost"), 2.77)("Its mean true cost at the reference amount, %.")


class BenchmarkFiguresSchema(Schema):
    corridor_count = described(fields.Integer(attribute="count"), 19)("Active corridors measured.")
    avg_cost_pct = described(Rounded(allow_none=True, attribute="avg_cost"), 4.6)("""
        Simple mean of the corridors' mean true costs, %; null with no active corridor.""")
    weighted_avg_cost_pct = described(Rounded(allow_none=True, attribute="weighted_avg_cost"), 5.2)("""
        The flow-weighted average: the corridors' mean true costs weighted by the money sent in each (annual_flow_bn,
        the remittance matrix's where it has the pair), %; closer to what senders pay in all than the simple mean. Null
        when every flow is 0 or no corridor is active.""")
    smart_avg_cost_pct = described(Rounded(allow_none=True, attribute="smart_avg_cost"), 2.87)("""
        Mean over corridors of their three cheapest offers' mean true cost, %; null with no active corridor.""")
    corridors_meeting_target = described(fields.Integer(), 2)("Corridors whose avg_cost_pct is at most 3.")
    corridors_with_offer_over_5_pct = described(fields.Integer(), 15)("Corridors with at least one offer above 5 %.")
    cheapest = described(fields.Nested(BenchmarkCorridorSchema, allow_none=True))("""
        The corridor with the lowest avg_cost_pct; null with no active corridor.""")
    costliest = described(fields.Nested(BenchmarkCorridorSchema, allow_none=True))("""
        The corridor with the highest avg_cost_pct; null with no active corridor.""")


class BenchmarkSchema(BenchmarkFiguresSchema):
    prices = common.BENCHMARK_PRICES
    sample = described(fields.Nested(BenchmarkFiguresSchema, allow_none=True))("""
        The same figures over the corridors with sample prices, when the figures above are the surveyed ones; null when
        they are the sample ones.""")
    survey = described(fields.Nested(SurveyBenchmarkSchema, allow_none=True))("""
        The World Bank survey's latest period, by its own method (/api/costs/global has every period); null when no
        survey was imported.""")
