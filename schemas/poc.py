"""Group B dump schemas: camelCase, display strings, the `ok` envelope; their fields' metadata makes the guide."""

from marshmallow import fields, pre_dump

from schemas import common
from schemas.api import RATE_DIGITS, CurrencySchema, HistorySchema, RankedProviderSchema
from schemas.camel import CamelCaseSchema
from schemas.common import described
from schemas.costs import CostCorridorEntry, SurveyBenchmarkEntry
from schemas.fields import BillionsText, DisplayDate, PercentText, Rounded

NEXT = described(fields.String(allow_none=True), "/api/poc/corridors?limit=100&cursor=YWZ0ZXI6MTAw")("""
    With limit: the next page's path and query, relative to the service; null on the last page, and for a whole
    list.""")


class OkSchema(CamelCaseSchema):
    """The envelope's flag; listed last among a response's bases so that it dumps first."""

    guide_object = "every answer"
    ok = common.OK


class CountSchema(CamelCaseSchema):
    """An envelope dumped from a list itself: its `count`, then the list under the field `listed` names."""

    guide_object = "every list"
    listed = ""
    count = described(fields.Integer(), 19)("Number of entries in the list that follows.")

    @pre_dump
    def count_the_list(self, listed, **kwargs):
        return {"count": len(listed), self.listed: listed}


class CorridorSchema(CamelCaseSchema):
    id = described(fields.Integer(attribute="corridor.id"), 1)("Corridor id, for /api/poc/corridors/<id>.")
    corridor = described(fields.String(attribute="corridor.pair"), "USD→MXN")("The corridor, FROM→TO.")
    source_country = common.SOURCE_COUNTRY
    destination_country = common.DESTINATION_COUNTRY
    annual_flow_bn = described(BillionsText(allow_none=True, attribute="corridor.annual_flow_bn"), "$52.6B")("""
        Money sent along the corridor in a year, USD billions: flowSource's figure for flowYear; null where no source
        has one.""")
    flow_year = common.FLOW_YEAR
    flow_source = common.FLOW_SOURCE
    avg_cost = described(PercentText(allow_none=True), "6.54%")("""
        Mean true cost over the corridor's providers that disclose their margin; null if none does.""")
    best_cost = described(PercentText(allow_none=True), "2.38%")("""
        Lowest true cost over the corridor's providers; null if none discloses its margin.""")
    compliance = common.COMPLIANCE
    settlement = described(fields.String(allow_none=True), "5 minutes")("""
        Settlement time of the fastest provider; null if none gives one.""")
    key = common.KEY
    sdg_target_met = described(fields.Boolean(allow_none=True), False)("""
        avgCost is at most 3.00%: the UN SDG 10.c target; null with no avgCost.""")
    offers_over_5_pct = described(fields.Integer(), 4)("Providers whose true cost exceeds 5%.")
    prices = common.PRICES


class ProviderEntrySchema(CamelCaseSchema, RankedProviderSchema):
    """Group A's ranked provider, with Group B's names and figures declared again where they differ, in place."""

    provider = described(fields.String(attribute="offer.provider"), "Remitly")("Provider name.")
    rate = described(Rounded(digits=RATE_DIGITS, allow_none=True), 18.6468)("""
        Rate given, the corridor's destination currency per source currency: mid-market less the FX margin, 6
        significant figures, for every provider whatever its payoutCurrency (payoutRate is the rate in that); null if
        the margin is not disclosed, or the destination currency has no rate.""")
    flat_fee = described(Rounded(attribute="offer.flat_fee", data_key="fee"), 1.99)("Fixed fee in the source currency.")
    fee_pct = described(PercentText(attribute="offer.fee_pct"), "0.00%")("""
        Fee as a share of the amount sent. A surveyed provider's fee is max(0, fee + amount × feePct) through its two
        published price points, so either may be negative.""")
    spread_pct = described(PercentText(allow_none=True), "1.38%")("""
        FX margin below the mid-market rate at the amount sent (negative: a promotion); null if not disclosed.""")
    true_cost_pct = described(PercentText(allow_none=True), "2.38%")("""
        Fees plus FX margin as a share of the amount sent; null if the margin is not disclosed (such providers rank
        after every other).""")
    settlement = described(fields.String(allow_none=True, attribute="offer.settlement"), "10 minutes")("""
        Typical time to arrive; null if unknown.""")
    payout_methods = described(
        fields.List(fields.String(), attribute="offer.payout_methods"), ["bank_deposit", "cash_pickup"]
    )("Ways the recipient can collect.")
    svc_score = described(fields.Integer(allow_none=True, attribute="offer.svc_score", data_key="score"), 90)("""
        Provider service score, 0–100; null for a surveyed provider (the survey scores none).""")


class ProviderGroupSchema(CamelCaseSchema):
    """A corridor's ranked providers, dumped from its CorridorFigures."""

    corridor = described(fields.String(attribute="corridor.key"), "USD_MXN")("The corridor's currency pair, FROM_TO.")
    source_country = common.SOURCE_COUNTRY
    destination_country = common.DESTINATION_COUNTRY
    count = described(fields.Integer(), 6)("Number of providers in the list that follows.")
    providers = described(fields.Nested(ProviderEntrySchema(many=True), attribute="quotes"))("""
        Providers ranked by true cost.""")


class FullCorridorSchema(CorridorSchema):
    compliance_notes = described(
        fields.String(allow_none=True, attribute="corridor.compliance_notes"), "Standard KYC with government-issued ID."
    )("What senders and recipients must show; null for a corridor only the survey has.")
    providers = described(fields.Nested(ProviderEntrySchema(many=True), attribute="quotes"))("""
        Providers ranked by true cost.""")


class PageSchema(CountSchema):
    """A page of corridors, dumped from a Listing (corridor/api/paging.py): its `count`, the corridors, and `next`."""

    guide_object = "every list of corridors"
    listed = "corridors"

    @pre_dump
    def count_the_list(self, listing, **kwargs):
        return {"count": len(listing.items), self.listed: listing.items, "next": listing.next}


class CorridorListResponse(PageSchema, OkSchema):
    corridors = described(fields.List(fields.Nested(CorridorSchema)))("Active corridors by id.")
    next = NEXT


class CostCorridorListResponse(PageSchema, OkSchema):
    corridors = described(fields.List(fields.Nested(CostCorridorEntry)))("""
        Every corridor with a published or a computed cost figure, by country pair.""")
    next = NEXT


class CorridorResponse(OkSchema):
    """Dumped from `{"corridor": figures}`."""

    guide_object = "one corridor"
    corridor = described(fields.Nested(CorridorSchema))("One corridor.")


class ProvidersResponse(ProviderGroupSchema, OkSchema): ...


class ProviderGroupsResponse(PageSchema, OkSchema):
    corridors = described(fields.List(fields.Nested(ProviderGroupSchema)))("""
        One provider group per active corridor, by id.""")
    next = NEXT


class FullResponse(OkSchema):
    """Dumped from a Listing (corridor/api/paging.py): the data's date, and every active corridor or a page of them."""

    guide_object = "full list"
    updated = described(DisplayDate(), "Nov 20, 2026")("""
        The data file's as_of, the day of its fees and spreads, Mon D, YYYY.""")
    count = described(fields.Integer(), 19)("Number of entries in the list that follows.")
    corridors = described(fields.List(fields.Nested(FullCorridorSchema)))("""
        Every active corridor with notes and providers.""")
    next = NEXT

    @pre_dump
    def from_listing(self, listing, **kwargs):
        return dict(updated=listing.updated, count=len(listing.items), corridors=listing.items, next=listing.next)


class CurrenciesResponse(CountSchema, OkSchema):
    listed = "currencies"
    currencies = described(fields.List(fields.Nested(CurrencySchema)))("Every currency in the rate tables, by code.")


class GuideFieldSchema(CamelCaseSchema):
    name = described(fields.String(), "avgCost")("A field name used in Group B payloads.")
    object = described(fields.String(), "corridor")("""
        The object the field belongs to, such as corridor, benchmark or provider entry; every answer for ok.""")
    type = described(fields.String(), "string")("JSON type: string, number, integer, boolean, array, object, or any.")
    description = described(fields.String(), "Mean true cost over the corridor's providers.")("What the field means.")
    example = described(fields.Raw(), "6.54%")("An example value.")


class GuideResponse(CountSchema, OkSchema):
    listed = "fields"
    entries = described(fields.List(fields.Nested(GuideFieldSchema), data_key="fields", attribute="fields"))("""
        Every field name of every Group B payload, from the schemas.""")


class FeedHealthSchema(CamelCaseSchema):
    source = described(fields.String(), "ECB")("The feed: ECB or Frankfurter.")
    status = described(fields.String(), "ok")("""
        ok: its last try gave usable rates; held: they moved the rates in force too far to serve unconfirmed (error says
        how), and the last good rates stay; failing: it gave nothing usable (or was not tried yet), and the last good
        rates stay; off: turned off by the operator.""")
    date = described(fields.Date(allow_none=True), "2026-11-24")("""
        Day of the rates in force from it, YYYY-MM-DD; null if none ever.""")
    checked_at = described(
        fields.DateTime(attribute="checkedAt", format="iso", allow_none=True), "2026-11-25T09:00:00+00:00"
    )("When it was last tried, ISO 8601 UTC; null before the first try.")
    error = described(fields.String(allow_none=True), "cannot connect: connection refused")("""
        Why the last try was refused or held back; null when it was not.""")


class HealthResponse(CamelCaseSchema):
    ok = described(fields.Boolean(), True)(common.OK_MEANING)  # false with a 503 while the instance drains
    status = described(fields.String(), "ok")("""
        ok; draining (with 503) once the instance has been told to stop: it serves every other request until it does;
        migrations_pending (with 503) while its database is behind the code's migrations: it serves no import until they
        are applied.""")
    version = described(fields.String(), "1.0.0")("Service version.")
    data_as_of = described(fields.Date(), "2026-11-20")("Date of the data, YYYY-MM-DD.")
    corridors = described(fields.Integer(), 19)("Number of active corridors served.")
    uptime_seconds = described(fields.Integer(), 42)("""
        Seconds since the instance started (under gunicorn, its master: the same in every worker, and kept across a
        HUP).""")
    history_start = described(fields.Date(), "1999-01-04")("First day of the ECB rate history, YYYY-MM-DD.")
    history_end = described(fields.Date(), "2026-10-30")("Last day of the ECB rate history, YYYY-MM-DD.")
    rates = described(fields.List(fields.Nested(FeedHealthSchema)))("The rate feeds, the ECB first.")


class HistoryResponse(HistorySchema, OkSchema):
    pair = described(fields.String(), "USD→MXN")("The pair, FROM→TO.")
    count = described(fields.Integer(), 256)("Number of points in the list that follows.")

    class Meta:
        fields = ("ok", "pair", "from_currency", "to_currency", "source", "interval", "start", "end", "count", "points")


class CorridorCostSchema(CamelCaseSchema):
    guide_object = "benchmark.cheapest and benchmark.costliest"
    corridor = described(fields.String(attribute="corridor.pair"), "SGD→IDR")("The corridor, FROM→TO.")
    key = described(fields.String(attribute="corridor.key"), "SGD_IDR")("Corridor key FROM_TO.")
    avg_cost = described(PercentText(), "2.77%")("Its mean true cost at the reference amount.")


class BenchmarkFiguresEntry(CamelCaseSchema):
    guide_object = "benchmark"  # and benchmark.sample: the same figures
    corridor_count = described(fields.Integer(attribute="count"), 19)("Active corridors measured.")
    avg_cost = described(PercentText(allow_none=True), "4.60%")("""
        Simple mean of the corridors' mean true costs; null with no active corridor.""")
    weighted_avg_cost = described(PercentText(allow_none=True), "5.20%")("""
        The flow-weighted average: the corridors' mean true costs weighted by the money sent in each (annualFlowBn),
        closer to what senders pay in all than the simple mean; null when every flow is 0 or no corridor is active.""")
    smart_avg_cost = described(PercentText(allow_none=True), "2.87%")("""
        Mean over corridors of their three cheapest providers' mean true cost; null with no active corridor.""")
    meeting_target = described(fields.Integer(attribute="corridors_meeting_target"), 2)("""
        Corridors whose avgCost is at most 3.00%.""")
    with_offer_over_5_pct = described(fields.Integer(attribute="corridors_with_offer_over_5_pct"), 15)("""
        Corridors with at least one provider above 5%.""")
    cheapest = described(fields.Nested(CorridorCostSchema, allow_none=True))("""
        The corridor with the lowest avgCost; null with no active corridor.""")
    costliest = described(fields.Nested(CorridorCostSchema, allow_none=True))("""
        The corridor with the highest avgCost; null with no active corridor.""")


class BenchmarkResponse(BenchmarkFiguresEntry, OkSchema):
    prices = common.BENCHMARK_PRICES
    sample = described(fields.Nested(BenchmarkFiguresEntry, allow_none=True))("""
        The same figures over the corridors with sample prices, when the figures above are the surveyed ones; null when
        they are the sample ones.""")
    survey = described(fields.Nested(SurveyBenchmarkEntry, allow_none=True))("""
        The World Bank survey's latest period, by its own method (/api/poc/costs/global has every period); null when no
        survey was imported.""")
