"""Dump schemas of the cost over time, computed and published: Group A's numbers, Group B's display strings. A period
leaves out the fields of a kind it lacks."""

from functools import partial

from marshmallow import Schema, fields, pre_dump

from corridor.domain.model import SURVEY
from corridor.domain.published import COMPUTED_SOURCE, PUBLISHED_SOURCE
from schemas.camel import CamelCaseSchema
from schemas.common import OK, described
from schemas.fields import BillionsText, PercentText, Rounded

_PUBLISHED_SOURCE = f"Where the published figures come from: {PUBLISHED_SOURCE}."
_COMPUTED_SOURCE = """Where the computed figures come from: the survey rows imported into this service; left out, with
    them, where no row was imported for the period."""
_PERIODS = "One entry per period with a computed or a published figure, oldest first."
_SENT = "Currency sent; null if the country's is not known."
_RECEIVED = "Currency received; null if the country's is not known."
_COUNT = "Number of entries in the list that follows."
_FLOW = """Money sent along the corridor in a year, USD billions: the remittance matrix's for the flow year, or a
    served corridor's own figure where the matrix has none; null where neither has one."""
SOURCE = described(fields.Constant(SURVEY), SURVEY, type="string")("""
    Where the figures come from: the World Bank's Remittance Prices Worldwide survey.""")
_published = partial(described, omitted_when="the World Bank published no figure for the period")
_computed = partial(described, omitted_when="no survey row of the period was imported")


def percents_as_text(schema: type[Schema]) -> dict[str, fields.Field]:
    """`schema`'s percentages (its Rounded fields at 2 decimals, and Dicts of them) as Group B writes them: text such as
    `4.87%`, for a Meta.include that replaces them where they stand."""
    text: dict[str, fields.Field] = {}
    for name, field in schema().fields.items():
        figure = field.value_field if isinstance(field, fields.Dict) else field
        if type(figure) is not Rounded or figure.places != 2 or figure.digits:
            continue
        example = field.metadata["example"]
        if isinstance(field, fields.Dict):
            text[name] = fields.Dict(keys=fields.String(), values=PercentText(), attribute=field.attribute)
            example = {key: PercentText.text.format(value) for key, value in example.items()}
        else:
            text[name] = PercentText(allow_none=field.allow_none, attribute=field.attribute)
            example = PercentText.text.format(example)
        text[name].metadata = {**text[name].metadata, **field.metadata, "example": example}
    return text


class PeriodCostsSchema(Schema):
    period = described(fields.String(), "2025Q1")("The survey's period, YYYYQn.")
    published_average_total_cost_pct = _published(Rounded(attribute="published.cost"), 10.87)("""
        The World Bank's own published average total cost of sending USD 200 in the corridor this period, to 2 decimals
        as it shows it; left out where it published none.""")
    published_source = _published(fields.String(attribute="published.source"), PUBLISHED_SOURCE)(_PUBLISHED_SOURCE)
    average_total_cost_pct = _computed(Rounded(allow_none=True, attribute="computed.average"), 11.14)("""
        The simple mean of the total cost % at the USD 200 point over the period's transparent observations, each
        product counting once; null if none was transparent.""")
    average_total_cost_pct_500 = _computed(Rounded(allow_none=True, attribute="computed.average_500"), 6.03)("""
        The same at the USD 500 point; null if no transparent observation gave one.""")
    smart_pct = _computed(Rounded(allow_none=True, attribute="computed.smart"), 2.31)("""
        SmaRT: the mean total cost % of the three cheapest transparent services that deliver within 5 days (of all of
        them if fewer); null if none does.""")
    lowest_total_cost_pct = _computed(Rounded(allow_none=True, attribute="computed.lowest"), 1.98)("""
        The lowest total cost % at the USD 200 point over the transparent observations; null if none.""")
    observations = _computed(fields.Integer(attribute="computed.observations"), 16)("""
        The services surveyed, a row each.""")
    transparent_observations = _computed(fields.Integer(attribute="computed.transparent_observations"), 16)("""
        Those that disclosed their rate: the averages' rows.""")
    by_firm_type = _computed(
        fields.Dict(keys=fields.String(), values=Rounded(), attribute="computed.by_firm_type"),
        {"Bank": 14.49, "Mobile Operator": 1.98, "Money Transfer Operator": 4.97},
    )("The average by kind of firm (Bank, Money Transfer Operator, …), over its transparent observations.")
    computed_source = _computed(fields.String(attribute="computed.source"), COMPUTED_SOURCE)(_COMPUTED_SOURCE)


class _CorridorOfCosts(Schema):
    corridor = described(fields.String(attribute="key"), "KEN-TZA")("The corridor's countries, SRC-DST.")
    source = SOURCE
    source_country_name = described(fields.String(attribute="source_name"), "Kenya")("Sending country.")
    destination_country_name = described(fields.String(attribute="destination_name"), "Tanzania")("Receiving country.")
    from_currency = described(fields.String(allow_none=True), "KES")(_SENT)
    to_currency = described(fields.String(allow_none=True), "TZS")(_RECEIVED)


class CostsSchema(_CorridorOfCosts):
    periods = described(fields.List(fields.Nested(PeriodCostsSchema)))(_PERIODS)


class GlobalPeriodSchema(Schema):
    period = described(fields.String(), "2025Q3")("The survey's period, YYYYQn.")
    published_mean_of_corridors_pct = _published(Rounded(attribute="published.mean_of_corridors"), 6.97)("""
        The simple mean of the corridors' published averages this period: a mean over corridors, not the World Bank's
        own global average, which pools services.""")
    published_corridors = _published(fields.Integer(attribute="published.corridors"), 312)("""
        The corridors with a published average this period, behind the published mean of corridors.""")
    published_source = _published(fields.String(attribute="published.source"), PUBLISHED_SOURCE)(_PUBLISHED_SOURCE)
    average_total_cost_pct = _computed(Rounded(allow_none=True, attribute="computed.average"), 22.61)("""
        The simple mean of the total cost % at the USD 200 point over every transparent observation of the period,
        pooled (not a mean of corridor averages).""")
    smart_pct = _computed(Rounded(allow_none=True, attribute="computed.smart"), 7.34)("""
        The mean of the corridors' SmaRT figures.""")
    observations = _computed(fields.Integer(attribute="computed.observations"), 80)("""
        The services surveyed this period, a row each.""")
    transparent_observations = _computed(fields.Integer(attribute="computed.transparent_observations"), 80)("""
        Those that disclosed their rate.""")
    corridors = _computed(fields.Integer(attribute="computed.corridors"), 8)("Corridors with an average this period.")
    corridors_at_or_under_5_pct = _computed(fields.Integer(attribute="computed.corridors_at_or_under_5_pct"), 0)("""
        Corridors whose average, to 2 decimals, is at most 5 %: the SDG 10.c ceiling.""")
    corridors_at_or_under_3_pct = _computed(fields.Integer(attribute="computed.corridors_at_or_under_3_pct"), 0)("""
        Corridors whose average, to 2 decimals, is at most 3 %: the SDG 10.c target.""")
    by_region = _computed(fields.Dict(keys=fields.String(), values=Rounded(), attribute="computed.by_region"), {})("""
        The pooled average by receiving region, where the rows name regions (the published workbook does; the shipped
        rows do not): an empty object otherwise.""")
    computed_source = _computed(fields.String(attribute="computed.source"), COMPUTED_SOURCE)(_COMPUTED_SOURCE)


class GlobalCostsSchema(Schema):
    source = SOURCE
    periods = described(fields.List(fields.Nested(GlobalPeriodSchema)))("One entry per surveyed period, oldest first.")

    @pre_dump
    def from_periods(self, periods: tuple, **kwargs: object) -> dict:
        return {"periods": periods}


class SurveyBenchmarkSchema(GlobalPeriodSchema):
    source = SOURCE

    class Meta:
        exclude = (
            "by_region",
            "observations",
            "transparent_observations",
            "published_mean_of_corridors_pct",
            "published_corridors",
            "published_source",
            "computed_source",
        )


# --- Group B ------------------------------------------------------------------------------------------


class PeriodCostsEntry(CamelCaseSchema, PeriodCostsSchema):
    class Meta:
        include = percents_as_text(PeriodCostsSchema)


# listed last among a Group B response's bases, so that `ok` dumps first; the guide names it by the response
class _Ok(Schema):
    ok = OK


class CostsResponse(CamelCaseSchema, _CorridorOfCosts, _Ok):
    count = described(fields.Function(lambda costs: len(costs.periods)), 2, type="integer")(_COUNT)
    periods = described(fields.List(fields.Nested(PeriodCostsEntry)))(_PERIODS)


class GlobalPeriodEntry(CamelCaseSchema, GlobalPeriodSchema):
    class Meta:
        include = percents_as_text(GlobalPeriodSchema)


class GlobalCostsResponse(CamelCaseSchema, _Ok):
    source = SOURCE
    count = described(fields.Integer(), 2)(_COUNT)
    periods = described(fields.List(fields.Nested(GlobalPeriodEntry)))("One entry per surveyed period, oldest first.")

    @pre_dump
    def from_periods(self, periods: tuple, **kwargs: object) -> dict:
        return {"count": len(periods), "periods": periods}


class SurveyBenchmarkEntry(GlobalPeriodEntry):
    source = SOURCE

    class Meta(SurveyBenchmarkSchema.Meta):
        pass


# --- the corridors with any cost figure -------------------------------------------------------------------------------


class CostCorridorSchema(Schema):
    corridor = described(fields.String(attribute="costs.key"), "USA-MEX")("The corridor's countries, SRC-DST.")
    source_country = described(fields.Function(lambda c: c.costs.key[:3]), "USA", type="string")("""
        Sending country, ISO 3166-1 alpha-3 (or the World Bank's code: KSV).""")
    destination_country = described(fields.Function(lambda c: c.costs.key[4:]), "MEX", type="string")("""
        Receiving country, ISO 3166-1 alpha-3 (or the World Bank's code: KSV, ANT).""")
    source_country_name = described(fields.String(attribute="costs.source_name"), "United States")("Sending country.")
    destination_country_name = described(fields.String(attribute="costs.destination_name"), "Mexico")("""
        Receiving country.""")
    from_currency = described(fields.String(allow_none=True, attribute="costs.from_currency"), "USD")(_SENT)
    to_currency = described(fields.String(allow_none=True, attribute="costs.to_currency"), "MXN")(_RECEIVED)
    latest_period = described(fields.String(), "2025Q3")("""
        The latest period with a published or a computed figure, YYYYQn.""")
    latest_published_period = described(fields.String(allow_none=True), "2020Q3")("""
        The period of the latest published average.""")
    latest_published_average_total_cost_pct = described(
        Rounded(allow_none=True, attribute="latest_published_average"), 5.34
    )("The World Bank's published average of the latest period it published one for; null if none.")
    latest_computed_period = described(fields.String(allow_none=True), "2025Q3")("""
        The period of the latest computed average.""")
    latest_computed_average_total_cost_pct = described(
        Rounded(allow_none=True, attribute="latest_computed_average"), 3.82
    )("The average computed from the survey rows of the latest period that gives one; null if none.")
    annual_flow_bn: fields.Field = described(Rounded(allow_none=True, places=1), 52.6)(_FLOW)
    flow_year = described(fields.Integer(allow_none=True), 2021)("""
        The year of the annual flow where the remittance matrix gives it; null otherwise.""")
    flow_source = described(fields.String(allow_none=True), "KNOMAD/World Bank Bilateral Remittance Matrix")("""
        Where the annual flow comes from; null without a flow.""")


class CostCorridorEntry(CamelCaseSchema, CostCorridorSchema):
    annual_flow_bn = described(BillionsText(allow_none=True), "$52.6B")(_FLOW)

    class Meta:
        include = percents_as_text(CostCorridorSchema)
        exclude = ("source_country", "destination_country")
