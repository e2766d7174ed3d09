"""Dump schemas of the cost over time: Group A's numbers (snake_case), Group B's display strings (camelCase).

Every figure is a percentage at 2 decimals: computed from the survey's rows by the World Bank's method
(corridor/domain/costs.py), or the World Bank's own published average. A period shows the kinds it has, each under
its own names; the other kind's fields are left out."""

from typing import Any

from marshmallow import Schema, fields, pre_dump

from corridor.domain.model import SURVEY
from corridor.domain.published import COMPUTED_SOURCE, PUBLISHED_SOURCE
from schemas.camel import CamelCaseSchema
from schemas.common import OK, described
from schemas.fields import BillionsText, PercentText, Rounded

_AVERAGE = (
    "The simple mean of the total cost % at the USD 200 point over the period's transparent observations, each product "
    "counting once; null if none was transparent."
)
_SMART = (
    "SmaRT: the mean total cost % of the three cheapest transparent services that deliver within 5 days (of all of "
    "them if fewer); null if none does."
)
_GLOBAL_AVERAGE = (
    "The simple mean of the total cost % at the USD 200 point over every transparent observation of the period, pooled "
    "(not a mean of corridor averages)."
)
_PUBLISHED = (
    "The World Bank's own published average total cost of sending USD 200 in the corridor this period, to 2 decimals "
    "as it shows it; left out where it published none."
)
_COMPUTED_SOURCE = (
    "Where the computed figures (average_total_cost_pct … by_firm_type) come from: the survey rows imported into this "
    "service; left out, with them, where no row was imported for the period."
)
_GLOBAL_PUBLISHED = (
    "The simple mean of the corridors' published averages this period: a mean over corridors, not the World Bank's own "
    "global average, which pools services."
)
_BY_REGION = (
    "The pooled average by receiving region, where the rows name regions (the published workbook does; the shipped "
    "rows do not): an empty object otherwise."
)
_PERIODS = "One entry per period with a computed or a published figure, oldest first."
_SENT, _RECEIVED = (
    "Currency sent; null if the country's is not known.",
    "Currency received; null if the country's is not known.",
)
_COUNT = "Number of entries in the list that follows."
SOURCE = described(
    fields.Constant(SURVEY),
    "Where the figures come from: the World Bank's Remittance Prices Worldwide survey.",
    SURVEY,
    type="string",
)


def _published(field: fields.Field, description: str, example: Any) -> fields.Field:
    return described(field, description, example, "the World Bank published no figure for the period")


def _computed(field: fields.Field, description: str, example: Any) -> fields.Field:
    return described(field, description, example, "no survey row of the period was imported")


def percents_as_text(schema: type[Schema]) -> dict[str, fields.Field]:
    """`schema`'s percentages (its Rounded fields at 2 decimals, and Dicts of them) as Group B writes them: text such as
    `4.87%`, for a Meta.include that replaces them where they stand."""
    text: dict[str, fields.Field] = {}
    for name, field in schema().fields.items():
        figure = field.value_field if isinstance(field, fields.Dict) else field
        if type(figure) is not Rounded or figure.places != 2:
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
    period = described(fields.String(), "The survey's period, YYYYQn.", "2025Q1")
    published_average_total_cost_pct = _published(Rounded(attribute="published.cost"), _PUBLISHED, 10.87)
    published_source = _published(
        fields.String(attribute="published.source"),
        f"Where published_average_total_cost_pct comes from: {PUBLISHED_SOURCE}.",
        PUBLISHED_SOURCE,
    )
    average_total_cost_pct = _computed(Rounded(allow_none=True, attribute="computed.average"), _AVERAGE, 11.14)
    average_total_cost_pct_500 = _computed(
        Rounded(allow_none=True, attribute="computed.average_500"),
        "The same at the USD 500 point; null if no transparent observation gave one.",
        6.03,
    )
    smart_pct = _computed(Rounded(allow_none=True, attribute="computed.smart"), _SMART, 2.31)
    lowest_total_cost_pct = _computed(
        Rounded(allow_none=True, attribute="computed.lowest"),
        "The lowest total cost % at the USD 200 point over the transparent observations; null if none.",
        1.98,
    )
    observations = _computed(
        fields.Integer(attribute="computed.observations"), "The services surveyed, a row each.", 16
    )
    transparent_observations = _computed(
        fields.Integer(attribute="computed.transparent_observations"),
        "Those that disclosed their rate: the averages' rows.",
        16,
    )
    by_firm_type = _computed(
        fields.Dict(keys=fields.String(), values=Rounded(), attribute="computed.by_firm_type"),
        "The average by kind of firm (Bank, Money Transfer Operator, …), over its transparent observations.",
        {"Bank": 14.49, "Mobile Operator": 1.98, "Money Transfer Operator": 4.97},
    )
    computed_source = _computed(fields.String(attribute="computed.source"), _COMPUTED_SOURCE, COMPUTED_SOURCE)


class CostsSchema(Schema):
    corridor = described(fields.String(attribute="key"), "The corridor's countries, SRC-DST.", "KEN-TZA")
    source = SOURCE
    source_country_name = described(fields.String(attribute="source_name"), "Sending country.", "Kenya")
    destination_country_name = described(fields.String(attribute="destination_name"), "Receiving country.", "Tanzania")
    from_currency = described(fields.String(allow_none=True), _SENT, "KES")
    to_currency = described(fields.String(allow_none=True), _RECEIVED, "TZS")
    periods = described(fields.List(fields.Nested(PeriodCostsSchema)), _PERIODS)


class GlobalPeriodSchema(Schema):
    period = described(fields.String(), "The survey's period, YYYYQn.", "2025Q3")
    published_mean_of_corridors_pct = _published(
        Rounded(attribute="published.mean_of_corridors"), _GLOBAL_PUBLISHED, 6.97
    )
    published_corridors = _published(
        fields.Integer(attribute="published.corridors"),
        "The corridors with a published average this period, behind published_mean_of_corridors_pct.",
        312,
    )
    published_source = _published(
        fields.String(attribute="published.source"),
        f"Where published_average_total_cost_pct comes from: {PUBLISHED_SOURCE}.",
        PUBLISHED_SOURCE,
    )
    average_total_cost_pct = _computed(Rounded(allow_none=True, attribute="computed.average"), _GLOBAL_AVERAGE, 22.61)
    smart_pct = _computed(
        Rounded(allow_none=True, attribute="computed.smart"), "The mean of the corridors' SmaRT figures.", 7.34
    )
    observations = _computed(
        fields.Integer(attribute="computed.observations"), "The services surveyed this period, a row each.", 80
    )
    transparent_observations = _computed(
        fields.Integer(attribute="computed.transparent_observations"), "Those that disclosed their rate.", 80
    )
    corridors = _computed(fields.Integer(attribute="computed.corridors"), "Corridors with an average this period.", 8)
    corridors_at_or_under_5_pct = _computed(
        fields.Integer(attribute="computed.corridors_at_or_under_5_pct"),
        "Corridors whose average, to 2 decimals, is at most 5 %: the SDG 10.c ceiling.",
        0,
    )
    corridors_at_or_under_3_pct = _computed(
        fields.Integer(attribute="computed.corridors_at_or_under_3_pct"),
        "Corridors whose average, to 2 decimals, is at most 3 %: the SDG 10.c target.",
        0,
    )
    by_region = _computed(
        fields.Dict(keys=fields.String(), values=Rounded(), attribute="computed.by_region"), _BY_REGION, {}
    )
    computed_source = _computed(fields.String(attribute="computed.source"), _COMPUTED_SOURCE, COMPUTED_SOURCE)


class GlobalCostsSchema(Schema):
    source = SOURCE
    periods = described(fields.List(fields.Nested(GlobalPeriodSchema)), "One entry per surveyed period, oldest first.")

    @pre_dump
    def from_periods(self, periods: tuple, **kwargs: object) -> dict:
        return {"periods": periods}


class SurveyBenchmarkSchema(GlobalPeriodSchema):
    """The latest period's global figures, in the benchmark."""

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


class CostsResponse(CamelCaseSchema):
    ok = OK
    corridor = described(fields.String(attribute="key"), "The corridor's countries, SRC-DST.", "KEN-TZA")
    source = SOURCE
    source_country_name = described(fields.String(attribute="source_name"), "Sending country.", "Kenya")
    destination_country_name = described(fields.String(attribute="destination_name"), "Receiving country.", "Tanzania")
    from_currency = described(fields.String(data_key="from", allow_none=True), _SENT, "KES")
    to_currency = described(fields.String(data_key="to", allow_none=True), _RECEIVED, "TZS")
    count = described(fields.Function(lambda costs: len(costs.periods)), _COUNT, 2, type="integer")
    periods = described(fields.List(fields.Nested(PeriodCostsEntry)), _PERIODS)


class GlobalPeriodEntry(CamelCaseSchema, GlobalPeriodSchema):
    published_corridors = _published(
        fields.Integer(attribute="published.corridors"),
        "The corridors with a published average this period, behind publishedMeanOfCorridorsPct.",
        312,
    )

    class Meta:
        include = percents_as_text(GlobalPeriodSchema)


class GlobalCostsResponse(CamelCaseSchema):
    ok = OK
    source = SOURCE
    count = described(fields.Integer(), _COUNT, 2)
    periods = described(fields.List(fields.Nested(GlobalPeriodEntry)), "One entry per surveyed period, oldest first.")

    @pre_dump
    def from_periods(self, periods: tuple, **kwargs: object) -> dict:
        return {"count": len(periods), "periods": periods}


class SurveyBenchmarkEntry(GlobalPeriodEntry):
    """The latest period's global figures, in Group B's benchmark."""

    source = SOURCE

    class Meta(SurveyBenchmarkSchema.Meta):
        pass


# --- the corridors with any cost figure -------------------------------------------------------------------------------

_FLOW = (
    "Money sent along the corridor in a year, USD billions: the remittance matrix's for flow_year, or a served "
    "corridor's own figure where the matrix has none; null where neither has one."
)


class CostCorridorSchema(Schema):
    corridor = described(fields.String(attribute="costs.key"), "The corridor's countries, SRC-DST.", "USA-MEX")
    source_country = described(
        fields.Function(lambda c: c.costs.key[:3]),
        "Sending country, ISO 3166-1 alpha-3 (or the World Bank's code: KSV).",
        "USA",
        type="string",
    )
    destination_country = described(
        fields.Function(lambda c: c.costs.key[4:]),
        "Receiving country, ISO 3166-1 alpha-3 (or the World Bank's code: KSV, ANT).",
        "MEX",
        type="string",
    )
    source_country_name = described(fields.String(attribute="costs.source_name"), "Sending country.", "United States")
    destination_country_name = described(
        fields.String(attribute="costs.destination_name"), "Receiving country.", "Mexico"
    )
    from_currency = described(fields.String(allow_none=True, attribute="costs.from_currency"), _SENT, "USD")
    to_currency = described(fields.String(allow_none=True, attribute="costs.to_currency"), _RECEIVED, "MXN")
    latest_period = described(
        fields.String(), "The latest period with a published or a computed figure, YYYYQn.", "2025Q3"
    )
    latest_published_period = described(
        fields.String(allow_none=True), "The period of latest_published_average_total_cost_pct.", "2020Q3"
    )
    latest_published_average_total_cost_pct = described(
        Rounded(allow_none=True, attribute="latest_published_average"),
        "The World Bank's published average of the latest period it published one for; null if none.",
        5.34,
    )
    latest_computed_period = described(
        fields.String(allow_none=True), "The period of latest_computed_average_total_cost_pct.", "2025Q3"
    )
    latest_computed_average_total_cost_pct = described(
        Rounded(allow_none=True, attribute="latest_computed_average"),
        "The average computed from the survey rows of the latest period that gives one; null if none.",
        3.82,
    )
    annual_flow_bn: fields.Field = described(Rounded(allow_none=True, places=1), _FLOW, 52.6)
    flow_year = described(
        fields.Integer(allow_none=True),
        "The year of annual_flow_bn where the remittance matrix gives it; null otherwise.",
        2021,
    )
    flow_source = described(
        fields.String(allow_none=True),
        "Where annual_flow_bn comes from; null without a flow.",
        "KNOMAD/World Bank Bilateral Remittance Matrix",
    )


class CostCorridorEntry(CamelCaseSchema, CostCorridorSchema):
    from_currency = described(
        fields.String(data_key="from", allow_none=True, attribute="costs.from_currency"), _SENT, "USD"
    )
    to_currency = described(
        fields.String(data_key="to", allow_none=True, attribute="costs.to_currency"), _RECEIVED, "MXN"
    )
    latest_published_period = described(
        fields.String(allow_none=True), "The period of latestPublishedAverageTotalCostPct.", "2020Q3"
    )
    latest_computed_period = described(
        fields.String(allow_none=True), "The period of latestComputedAverageTotalCostPct.", "2025Q3"
    )
    annual_flow_bn = described(BillionsText(allow_none=True), _FLOW, "$52.6B")

    class Meta:
        include = percents_as_text(CostCorridorSchema)
        exclude = ("source_country", "destination_country")
