"""Group B dump schemas: camelCase, display strings, the `ok` envelope.

Every field carries `description` and `example` metadata: the guide is generated from them.
"""

from marshmallow import fields, pre_dump

from schemas import common
from schemas.api import CurrencySchema, HistorySchema
from schemas.camel import CamelCaseSchema
from schemas.common import described
from schemas.costs import CostCorridorEntry, SurveyBenchmarkEntry
from schemas.fields import BillionsText, DisplayDate, PercentText, Rounded, SignificantFigures
from schemas.ranked import RankedEntrySchema


class OkSchema(CamelCaseSchema):
    """The envelope's flag; listed last among a response's bases so that it dumps first."""

    guide_object = "every answer"

    ok = common.OK


class CountSchema(CamelCaseSchema):
    """An envelope dumped from a list itself: its `count`, then the list under the field `listed` names."""

    guide_object = "every list"

    listed = ""
    count = described(fields.Integer(), "Number of entries in the list that follows.", 19)

    @pre_dump
    def count_the_list(self, listed, **kwargs):
        return {"count": len(listed), self.listed: listed}


class CorridorSchema(CamelCaseSchema):
    id = described(fields.Integer(attribute="corridor.id"), "Corridor id, for /api/poc/corridors/<id>.", 1)
    corridor = described(fields.String(attribute="corridor.pair"), "The corridor, FROM→TO.", "USD→MXN")
    source_country = common.SOURCE_COUNTRY
    destination_country = common.DESTINATION_COUNTRY
    annual_flow_bn = described(
        BillionsText(allow_none=True, attribute="corridor.annual_flow_bn"),
        "Money sent along the corridor in a year, USD billions: flowSource's figure for flowYear; null where no source "
        "has one.",
        "$52.6B",
    )
    flow_year = described(
        fields.Integer(allow_none=True, attribute="corridor.flow_year"),
        "The year of annualFlowBn where the remittance matrix gives it; null for the data file's figure.",
        2021,
    )
    flow_source = described(
        fields.String(allow_none=True, attribute="corridor.flow_source"),
        "Where annualFlowBn comes from: the KNOMAD/World Bank Bilateral Remittance Matrix, or the data file where the "
        "matrix has no figure for the pair; null without a flow.",
        "KNOMAD/World Bank Bilateral Remittance Matrix",
    )
    avg_cost = described(
        PercentText(allow_none=True),
        "Mean true cost over the corridor's providers that disclose their margin; null if none does.",
        "6.54%",
    )
    best_cost = described(
        PercentText(allow_none=True),
        "Lowest true cost over the corridor's providers; null if none discloses its margin.",
        "2.38%",
    )
    compliance = common.COMPLIANCE
    settlement = described(
        fields.String(allow_none=True), "Settlement time of the fastest provider; null if none gives one.", "5 minutes"
    )
    key = described(
        fields.String(attribute="corridor.key"),
        "The currency pair FROM_TO, as the `corridor` query parameter takes it when no other active corridor has it; "
        "sourceCountry-destinationCountry always names this one.",
        "USD_MXN",
    )
    sdg_target_met = described(
        fields.Boolean(allow_none=True),
        "avgCost is at most 3.00%: the UN SDG 10.c target; null with no avgCost.",
        False,
    )
    offers_over_5_pct = described(fields.Integer(), "Providers whose true cost exceeds 5%.", 4)
    prices = common.PRICES


class ProviderEntrySchema(RankedEntrySchema, CamelCaseSchema):
    per_offer = ("settlement_minutes", "payout_currency")  # and those read through the offer

    rank = common.RANK
    provider = described(fields.String(attribute="offer.provider"), "Provider name.", "Remitly")
    rate = described(
        SignificantFigures(allow_none=True),
        "Rate given, the corridor's destination currency per source currency: mid-market less the FX margin, 6 "
        "significant figures, for every provider whatever its payoutCurrency (payoutRate is the rate in that); null if "
        "the margin is not disclosed, or the destination currency has no rate.",
        18.6468,
    )
    fee = described(Rounded(attribute="offer.flat_fee"), "Fixed fee in the source currency.", 1.99)
    fee_pct = described(
        PercentText(attribute="offer.fee_pct"),
        "Fee as a share of the amount sent. A surveyed provider's fee is max(0, fee + amount × feePct) through its two "
        "published price points, so either may be negative.",
        "0.00%",
    )
    spread_pct = described(
        PercentText(allow_none=True),
        "FX margin below the mid-market rate at the amount sent (negative: a promotion); null if not disclosed.",
        "1.38%",
    )
    true_cost_pct = described(
        PercentText(allow_none=True),
        "Fees plus FX margin as a share of the amount sent; null if the margin is not disclosed (such providers rank "
        "after every other).",
        "2.38%",
    )
    settlement = described(
        fields.String(allow_none=True, attribute="offer.settlement"),
        "Typical time to arrive; null if unknown.",
        "10 minutes",
    )
    payout_methods = described(
        fields.List(fields.String(), attribute="offer.payout_methods"),
        "Ways the recipient can collect.",
        ["bank_deposit", "cash_pickup"],
    )
    score = described(
        fields.Integer(allow_none=True, attribute="offer.svc_score"),
        "Provider service score, 0–100; null for a surveyed provider (the survey scores none).",
        90,
    )
    send_amount = common.SEND_AMOUNT
    fee_total = described(
        Rounded(allow_none=True), "max(0, fee + amount × fee % / 100), source currency, paid on top.", 1.99
    )
    recipient_gets = described(
        Rounded(allow_none=True),
        "amount × rate, in the corridor's destination currency: for a provider paying out in US dollars, what it pays "
        "is worth that at the mid-market rate (payoutAmount is the dollars); null when the rate is.",
        3639.48,
    )
    settlement_minutes = described(fields.Integer(allow_none=True), "Settlement time in minutes; null if unknown.", 10)
    total_paid = described(
        Rounded(allow_none=True), "sendAmount + feeTotal: what the sender pays in all, source currency.", 201.99
    )
    source = common.PRICES_SOURCE
    period = common.SURVEY_PERIOD
    collected = common.COLLECTED
    payout_currency = described(
        fields.String(),
        "What the recipient gets: the corridor's destination currency, or USD where the provider pays out in US "
        "dollars.",
        "MXN",
    )
    payout_rate = described(
        SignificantFigures(allow_none=True),
        "For a provider paying out in another currency than the destination's: its rate, payoutCurrency per source "
        "currency, 6 significant figures; null for one paying out in the destination currency, and when the rate is.",
        0.00759749,
    )
    payout_amount = described(
        Rounded(allow_none=True),
        "For a provider paying out in another currency than the destination's: amount × payoutRate, what arrives in "
        "payoutCurrency; with receive_amount, receive_amount's worth at the mid-market rate. Null for one paying out "
        "in the destination currency.",
        192.64,
    )
    fx_margin_disclosed = described(
        fields.Boolean(attribute="offer.disclosed"),
        "Whether the provider disclosed its exchange rate (the survey's `transparent`); if not, its margin and true "
        "cost are unknown.",
        True,
    )
    firm_type = common.FIRM_TYPE
    promotion = described(
        fields.Boolean(attribute="offer.promotion"),
        "The survey noted these prices as a promotion's, a marketing campaign's or a discount's: by cost, such a "
        "provider ranks after every provider at its regular price.",
        False,
    )
    payment_instrument = common.PAYMENT_INSTRUMENT
    pickup_method = common.PICKUP_METHOD
    speed = common.SPEED


class ProviderGroupSchema(CamelCaseSchema):
    """A corridor's ranked providers, dumped from its CorridorFigures."""

    corridor = described(fields.String(attribute="corridor.key"), "The corridor's currency pair, FROM_TO.", "USD_MXN")
    source_country = common.SOURCE_COUNTRY
    destination_country = common.DESTINATION_COUNTRY
    count = described(fields.Integer(), "Number of providers in the list that follows.", 6)
    providers = described(
        fields.Nested(ProviderEntrySchema(many=True), attribute="quotes"), "Providers ranked by true cost."
    )


class FullCorridorSchema(CorridorSchema):
    compliance_notes = described(
        fields.String(allow_none=True, attribute="corridor.compliance_notes"),
        "What senders and recipients must show; null for a corridor only the survey has.",
        "Standard KYC with government-issued ID.",
    )
    providers = described(
        fields.Nested(ProviderEntrySchema(many=True), attribute="quotes"), "Providers ranked by true cost."
    )


class PageSchema(CountSchema):
    """A page of corridors, dumped from a Listing (corridor/api/paging.py): its `count`, the corridors, and `next`."""

    guide_object = "every list of corridors"

    @pre_dump
    def count_the_list(self, listing, **kwargs):
        return {"count": len(listing.items), self.listed: listing.items, "next": listing.next}


def _next() -> fields.String:
    return described(
        fields.String(allow_none=True),
        "With limit: the next page's path and query, relative to the service; null on the last page, and for a whole "
        "list.",
        "/api/poc/corridors?limit=100&cursor=YWZ0ZXI6MTAw",
    )


class CorridorListResponse(PageSchema, OkSchema):
    listed = "corridors"
    corridors = described(fields.List(fields.Nested(CorridorSchema)), "Active corridors by id.")
    next = _next()


class CostCorridorListResponse(PageSchema, OkSchema):
    listed = "corridors"
    corridors = described(
        fields.List(fields.Nested(CostCorridorEntry)),
        "Every corridor with a published or a computed cost figure, by country pair.",
    )
    next = _next()


class CorridorResponse(OkSchema):
    """Dumped from `{"corridor": figures}`."""

    guide_object = "one corridor"
    corridor = described(fields.Nested(CorridorSchema), "One corridor.")


class ProvidersResponse(ProviderGroupSchema, OkSchema):
    """One corridor's providers: the group shape plus `ok`."""


class ProviderGroupsResponse(PageSchema, OkSchema):
    listed = "corridors"
    corridors = described(
        fields.List(fields.Nested(ProviderGroupSchema)), "One provider group per active corridor, by id."
    )
    next = _next()


class FullResponse(OkSchema):
    """Dumped from a Listing (corridor/api/paging.py): the data's date, and every active corridor or a page of them."""

    guide_object = "full list"
    updated = described(
        DisplayDate(), "The data file's as_of, the day of its fees and spreads, Mon D, YYYY.", "Nov 20, 2026"
    )
    count = described(fields.Integer(), "Number of entries in the list that follows.", 19)
    corridors = described(
        fields.List(fields.Nested(FullCorridorSchema)), "Every active corridor with notes and providers."
    )
    next = _next()

    @pre_dump
    def from_listing(self, listing, **kwargs):
        return {
            "updated": listing.updated,
            "count": len(listing.items),
            "corridors": listing.items,
            "next": listing.next,
        }


class CurrenciesResponse(CountSchema, OkSchema):
    listed = "currencies"
    currencies = described(fields.List(fields.Nested(CurrencySchema)), "Every currency in the rate tables, by code.")


class GuideFieldSchema(CamelCaseSchema):
    name = described(fields.String(), "A field name used in Group B payloads.", "avgCost")
    object = described(
        fields.String(),
        "The object the field belongs to, such as corridor, benchmark or provider entry; every answer for ok.",
        "corridor",
    )
    type = described(fields.String(), "JSON type: string, number, integer, boolean, array, object, or any.", "string")
    description = described(fields.String(), "What the field means.", "Mean true cost over the corridor's providers.")
    example = described(fields.Raw(), "An example value.", "6.54%")


class GuideResponse(CountSchema, OkSchema):
    listed = "fields"
    entries = described(
        fields.List(fields.Nested(GuideFieldSchema), data_key="fields", attribute="fields"),
        "Every field name of every Group B payload, from the schemas.",
    )


class FeedHealthSchema(CamelCaseSchema):
    source = described(fields.String(), "The feed: ECB or Frankfurter.", "ECB")
    status = described(
        fields.String(),
        "ok: its last try gave usable rates; held: they moved the rates in force too far to serve unconfirmed (error "
        "says how), and the last good rates stay; failing: it gave nothing usable (or was not tried yet), and the last "
        "good rates stay; off: turned off by the operator.",
        "ok",
    )
    date = described(
        fields.Date(allow_none=True), "Day of the rates in force from it, YYYY-MM-DD; null if none ever.", "2026-11-24"
    )
    checked_at = described(
        fields.DateTime(attribute="checkedAt", format="iso", allow_none=True),
        "When it was last tried, ISO 8601 UTC; null before the first try.",
        "2026-11-25T09:00:00+00:00",
    )
    error = described(
        fields.String(allow_none=True),
        "Why the last try was refused or held back; null when it was not.",
        "cannot connect: connection refused",
    )


class HealthResponse(CamelCaseSchema):
    ok = described(fields.Boolean(), common.OK_MEANING, True)  # false with a 503 while the instance drains
    status = described(
        fields.String(),
        "ok; draining (with 503) once the instance has been told to stop: it serves every other request until it does; "
        "migrations_pending (with 503) while its database is behind the code's migrations: it serves no import until "
        "they are applied.",
        "ok",
    )
    version = described(fields.String(), "Service version.", "1.0.0")
    data_as_of = described(fields.Date(), "Date of the data, YYYY-MM-DD.", "2026-11-20")
    corridors = described(fields.Integer(), "Number of active corridors served.", 19)
    uptime_seconds = described(fields.Integer(), "Seconds since this worker started.", 42)
    history_start = described(fields.Date(), "First day of the ECB rate history, YYYY-MM-DD.", "1999-01-04")
    history_end = described(fields.Date(), "Last day of the ECB rate history, YYYY-MM-DD.", "2026-10-30")
    rates = described(fields.List(fields.Nested(FeedHealthSchema)), "The rate feeds, the ECB first.")


class HistoryResponse(HistorySchema, OkSchema):
    pair = described(fields.String(), "The pair, FROM→TO.", "USD→MXN")
    count = described(fields.Integer(), "Number of points in the list that follows.", 256)

    class Meta:
        fields = ("ok", "pair", "from_currency", "to_currency", "source", "interval", "start", "end", "count", "points")


class CorridorCostSchema(CamelCaseSchema):
    guide_object = "benchmark.cheapest and benchmark.costliest"

    corridor = described(fields.String(attribute="corridor.pair"), "The corridor, FROM→TO.", "SGD→IDR")
    key = described(fields.String(attribute="corridor.key"), "Corridor key FROM_TO.", "SGD_IDR")
    avg_cost = described(PercentText(), "Its mean true cost at the reference amount.", "2.77%")


class BenchmarkFiguresEntry(CamelCaseSchema):
    guide_object = "benchmark"  # and benchmark.sample: the same figures

    corridor_count = described(fields.Integer(attribute="count"), "Active corridors measured.", 19)
    avg_cost = described(
        PercentText(allow_none=True),
        "Simple mean of the corridors' mean true costs; null with no active corridor.",
        "4.60%",
    )
    weighted_avg_cost = described(
        PercentText(allow_none=True),
        "The flow-weighted average: the corridors' mean true costs weighted by the money sent in each (annualFlowBn), "
        "closer to what senders pay in all than the simple mean; null when every flow is 0 or no corridor is active.",
        "5.20%",
    )
    smart_avg_cost = described(
        PercentText(allow_none=True),
        "Mean over corridors of their three cheapest providers' mean true cost; null with no active corridor.",
        "2.87%",
    )
    meeting_target = described(
        fields.Integer(attribute="corridors_meeting_target"), "Corridors whose avgCost is at most 3.00%.", 2
    )
    with_offer_over_5_pct = described(
        fields.Integer(attribute="corridors_with_offer_over_5_pct"),
        "Corridors with at least one provider above 5%.",
        15,
    )
    cheapest = described(
        fields.Nested(CorridorCostSchema, allow_none=True),
        "The corridor with the lowest avgCost; null with no active corridor.",
    )
    costliest = described(
        fields.Nested(CorridorCostSchema, allow_none=True),
        "The corridor with the highest avgCost; null with no active corridor.",
    )


class BenchmarkResponse(BenchmarkFiguresEntry, OkSchema):
    prices = described(
        fields.String(),
        "The corridors the figures count: surveyed (those the World Bank surveyed) whenever the survey is imported, or "
        "sample (the data file's) when it is not. The two are never pooled.",
        "sample",
    )
    sample = described(
        fields.Nested(BenchmarkFiguresEntry, allow_none=True),
        "The same figures over the corridors with sample prices, when the figures above are the surveyed ones; null "
        "when they are the sample ones.",
    )
    survey = described(
        fields.Nested(SurveyBenchmarkEntry, allow_none=True),
        "The World Bank survey's latest period, by its own method (/api/poc/costs/global has every period); null when "
        "no survey was imported.",
    )
