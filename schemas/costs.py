"""Dump schemas of the cost over time: Group A's numbers (snake_case), Group B's display strings (camelCase).

Every figure is a percentage at 2 decimals: computed from the survey's rows by the World Bank's method
(corridor/domain/costs.py), or the World Bank's own published average. A period shows the kinds it has, each under
its own names; the other kind's fields are left out."""

from marshmallow import Schema, fields, pre_dump

from corridor.domain.model import SURVEY
from corridor.domain.published import COMPUTED_SOURCE, PUBLISHED_SOURCE
from schemas.camel import CamelCaseSchema
from schemas.fields import BillionsText, PercentText, Rounded, meta

_SOURCE = {
    "description": "Where the figures come from: the World Bank's Remittance Prices Worldwide survey.",
    "example": SURVEY,
    "type": "string",
}
_AVERAGE = (
    "The simple mean of the total cost % at the USD 200 point over the period's transparent observations, "
    "each product counting once; null if none was transparent."
)
_AVERAGE_500 = "The same at the USD 500 point; null if no transparent observation gave one."
_SMART = (
    "SmaRT: the mean total cost % of the three cheapest transparent services that deliver within 5 days (of "
    "all of them if fewer); null if none does."
)
_LOWEST = "The lowest total cost % at the USD 200 point over the transparent observations; null if none."
_BY_FIRM_TYPE = "The average by kind of firm (Bank, Money Transfer Operator, …), over its transparent observations."
_GLOBAL_AVERAGE = (
    "The simple mean of the total cost % at the USD 200 point over every transparent observation of "
    "the period, pooled (not a mean of corridor averages)."
)
_GLOBAL_SMART = "The mean of the corridors' SmaRT figures."
_CORRIDORS = "Corridors with an average this period."
_AT_5, _AT_3 = (
    "Corridors whose average, to 2 decimals, is at most 5 %: the SDG 10.c ceiling.",
    "Corridors whose average, to 2 decimals, is at most 3 %: the SDG 10.c target.",
)
_PUBLISHED = (
    "The World Bank's own published average total cost of sending USD 200 in the corridor this period, "
    "to 2 decimals as it shows it; left out where it published none."
)
_PUBLISHED_SOURCE = f"Where published_average_total_cost_pct comes from: {PUBLISHED_SOURCE}."
_COMPUTED_SOURCE = (
    "Where the computed figures (average_total_cost_pct … by_firm_type) come from: the survey rows "
    "imported into this service; left out, with them, where no row was imported for the period."
)
_GLOBAL_PUBLISHED = (
    "The simple mean of the corridors' published averages this period: a mean over corridors, not "
    "the World Bank's own global average, which pools services."
)
_BY_REGION = (
    "The pooled average by receiving region, where the rows name regions (the published workbook does; "
    "the shipped rows do not): an empty object otherwise."
)


def _meta(description: str, example: object, omitted_when: str | None = None) -> dict:
    return meta(description, example, **({"x-omitted-when": omitted_when} if omitted_when else {}))


_NOT_PUBLISHED = "the World Bank published no figure for the period"
_NOT_COMPUTED = "no survey row of the period was imported"


class PeriodCostsSchema(Schema):
    period = fields.String(**_meta("The survey's period, YYYYQn.", "2025Q1"))
    published_average_total_cost_pct = Rounded(attribute="published.cost", **_meta(_PUBLISHED, 10.87, _NOT_PUBLISHED))
    published_source = fields.String(
        attribute="published.source", **_meta(_PUBLISHED_SOURCE, PUBLISHED_SOURCE, _NOT_PUBLISHED)
    )
    average_total_cost_pct = Rounded(
        allow_none=True, attribute="computed.average", **_meta(_AVERAGE, 11.14, _NOT_COMPUTED)
    )
    average_total_cost_pct_500 = Rounded(
        allow_none=True, attribute="computed.average_500", **_meta(_AVERAGE_500, 6.03, _NOT_COMPUTED)
    )
    smart_pct = Rounded(allow_none=True, attribute="computed.smart", **_meta(_SMART, 2.31, _NOT_COMPUTED))
    lowest_total_cost_pct = Rounded(allow_none=True, attribute="computed.lowest", **_meta(_LOWEST, 1.98, _NOT_COMPUTED))
    observations = fields.Integer(
        attribute="computed.observations", **_meta("The services surveyed, a row each.", 16, _NOT_COMPUTED)
    )
    transparent_observations = fields.Integer(
        attribute="computed.transparent_observations",
        **_meta("Those that disclosed their rate: the averages' rows.", 16, _NOT_COMPUTED),
    )
    by_firm_type = fields.Dict(
        keys=fields.String(),
        values=Rounded(),
        attribute="computed.by_firm_type",
        **_meta(
            _BY_FIRM_TYPE, {"Bank": 14.49, "Mobile Operator": 1.98, "Money Transfer Operator": 4.97}, _NOT_COMPUTED
        ),
    )
    computed_source = fields.String(
        attribute="computed.source", **_meta(_COMPUTED_SOURCE, COMPUTED_SOURCE, _NOT_COMPUTED)
    )


class CostsSchema(Schema):
    corridor = fields.String(attribute="key", **_meta("The corridor's countries, SRC-DST.", "KEN-TZA"))
    source = fields.Constant(SURVEY, metadata=_SOURCE)
    source_country_name = fields.String(attribute="source_name", **_meta("Sending country.", "Kenya"))
    destination_country_name = fields.String(attribute="destination_name", **_meta("Receiving country.", "Tanzania"))
    from_currency = fields.String(allow_none=True, **_meta("Currency sent; null if the country's is not known.", "KES"))
    to_currency = fields.String(
        allow_none=True, **_meta("Currency received; null if the country's is not known.", "TZS")
    )
    periods = fields.List(
        fields.Nested(PeriodCostsSchema),
        **meta("One entry per period with a computed or a published figure, oldest first."),
    )


class GlobalPeriodSchema(Schema):
    period = fields.String(**_meta("The survey's period, YYYYQn.", "2025Q3"))
    published_mean_of_corridors_pct = Rounded(
        attribute="published.mean_of_corridors", **_meta(_GLOBAL_PUBLISHED, 6.97, _NOT_PUBLISHED)
    )
    published_corridors = fields.Integer(
        attribute="published.corridors",
        **_meta(
            "The corridors with a published average this period, behind published_mean_of_corridors_pct.",
            312,
            _NOT_PUBLISHED,
        ),
    )
    published_source = fields.String(
        attribute="published.source", **_meta(_PUBLISHED_SOURCE, PUBLISHED_SOURCE, _NOT_PUBLISHED)
    )
    average_total_cost_pct = Rounded(
        allow_none=True, attribute="computed.average", **_meta(_GLOBAL_AVERAGE, 22.61, _NOT_COMPUTED)
    )
    smart_pct = Rounded(allow_none=True, attribute="computed.smart", **_meta(_GLOBAL_SMART, 7.34, _NOT_COMPUTED))
    observations = fields.Integer(
        attribute="computed.observations", **_meta("The services surveyed this period, a row each.", 80, _NOT_COMPUTED)
    )
    transparent_observations = fields.Integer(
        attribute="computed.transparent_observations", **_meta("Those that disclosed their rate.", 80, _NOT_COMPUTED)
    )
    corridors = fields.Integer(attribute="computed.corridors", **_meta(_CORRIDORS, 8, _NOT_COMPUTED))
    corridors_at_or_under_5_pct = fields.Integer(
        attribute="computed.corridors_at_or_under_5_pct", **_meta(_AT_5, 0, _NOT_COMPUTED)
    )
    corridors_at_or_under_3_pct = fields.Integer(
        attribute="computed.corridors_at_or_under_3_pct", **_meta(_AT_3, 0, _NOT_COMPUTED)
    )
    by_region = fields.Dict(
        keys=fields.String(), values=Rounded(), attribute="computed.by_region", **_meta(_BY_REGION, {}, _NOT_COMPUTED)
    )
    computed_source = fields.String(
        attribute="computed.source", **_meta(_COMPUTED_SOURCE, COMPUTED_SOURCE, _NOT_COMPUTED)
    )


class GlobalCostsSchema(Schema):
    """Dumped from the periods themselves."""

    source = fields.Constant(SURVEY, metadata=_SOURCE)
    periods = fields.List(fields.Nested(GlobalPeriodSchema), **meta("One entry per surveyed period, oldest first."))

    @pre_dump
    def from_periods(self, periods: tuple, **kwargs: object) -> dict:
        return {"periods": periods}


class SurveyBenchmarkSchema(GlobalPeriodSchema):
    """The latest period's global figures, in the benchmark."""

    source = fields.Constant(SURVEY, metadata=_SOURCE)

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


def _ok() -> fields.Constant:
    return fields.Constant(True, **meta("true when the request succeeded, false on an error.", True, type="boolean"))


class PeriodCostsEntry(CamelCaseSchema, PeriodCostsSchema):
    published_average_total_cost_pct = PercentText(
        attribute="published.cost", **_meta(_PUBLISHED, "10.87%", _NOT_PUBLISHED)
    )
    average_total_cost_pct = PercentText(
        allow_none=True, attribute="computed.average", **_meta(_AVERAGE, "11.14%", _NOT_COMPUTED)
    )
    average_total_cost_pct_500 = PercentText(
        allow_none=True, attribute="computed.average_500", **_meta(_AVERAGE_500, "6.03%", _NOT_COMPUTED)
    )
    smart_pct = PercentText(allow_none=True, attribute="computed.smart", **_meta(_SMART, "2.31%", _NOT_COMPUTED))
    lowest_total_cost_pct = PercentText(
        allow_none=True, attribute="computed.lowest", **_meta(_LOWEST, "1.98%", _NOT_COMPUTED)
    )
    by_firm_type = fields.Dict(
        keys=fields.String(),
        values=PercentText(),
        attribute="computed.by_firm_type",
        **_meta(
            _BY_FIRM_TYPE,
            {"Bank": "14.49%", "Mobile Operator": "1.98%", "Money Transfer Operator": "4.97%"},
            _NOT_COMPUTED,
        ),
    )


class CostsResponse(CamelCaseSchema):
    ok = _ok()
    corridor = fields.String(attribute="key", **_meta("The corridor's countries, SRC-DST.", "KEN-TZA"))
    source = fields.Constant(SURVEY, metadata=_SOURCE)
    source_country_name = fields.String(attribute="source_name", **_meta("Sending country.", "Kenya"))
    destination_country_name = fields.String(attribute="destination_name", **_meta("Receiving country.", "Tanzania"))
    from_currency = fields.String(
        data_key="from", allow_none=True, **_meta("Currency sent; null if the country's is not known.", "KES")
    )
    to_currency = fields.String(
        data_key="to", allow_none=True, **_meta("Currency received; null if the country's is not known.", "TZS")
    )
    count = fields.Function(
        lambda costs: len(costs.periods), **meta("Number of entries in the list that follows.", 2, type="integer")
    )
    periods = fields.List(
        fields.Nested(PeriodCostsEntry),
        **meta("One entry per period with a computed or a published figure, oldest first."),
    )


class GlobalPeriodEntry(CamelCaseSchema, GlobalPeriodSchema):
    published_mean_of_corridors_pct = PercentText(
        attribute="published.mean_of_corridors", **_meta(_GLOBAL_PUBLISHED, "6.97%", _NOT_PUBLISHED)
    )
    published_corridors = fields.Integer(
        attribute="published.corridors",
        **_meta(
            "The corridors with a published average this period, behind publishedMeanOfCorridorsPct.",
            312,
            _NOT_PUBLISHED,
        ),
    )
    average_total_cost_pct = PercentText(
        allow_none=True, attribute="computed.average", **_meta(_GLOBAL_AVERAGE, "22.61%", _NOT_COMPUTED)
    )
    smart_pct = PercentText(allow_none=True, attribute="computed.smart", **_meta(_GLOBAL_SMART, "7.34%", _NOT_COMPUTED))
    by_region = fields.Dict(
        keys=fields.String(),
        values=PercentText(),
        attribute="computed.by_region",
        **_meta(_BY_REGION, {}, _NOT_COMPUTED),
    )


class GlobalCostsResponse(CamelCaseSchema):
    ok = _ok()
    source = fields.Constant(SURVEY, metadata=_SOURCE)
    count = fields.Integer(**_meta("Number of entries in the list that follows.", 2))
    periods = fields.List(fields.Nested(GlobalPeriodEntry), **meta("One entry per surveyed period, oldest first."))

    @pre_dump
    def from_periods(self, periods: tuple, **kwargs: object) -> dict:
        return {"count": len(periods), "periods": periods}


class SurveyBenchmarkEntry(GlobalPeriodEntry):
    """The latest period's global figures, in Group B's benchmark."""

    source = fields.Constant(SURVEY, metadata=_SOURCE)

    class Meta(SurveyBenchmarkSchema.Meta):
        pass


# --- the corridors with any cost figure -------------------------------------------------------------------------------

_LATEST_PERIOD = "The latest period with a published or a computed figure, YYYYQn."
_LATEST_PUBLISHED = "The World Bank's published average of the latest period it published one for; null if none."
_LATEST_COMPUTED = "The average computed from the survey rows of the latest period that gives one; null if none."
_FLOW = (
    "Money sent along the corridor in a year, USD billions: the remittance matrix's for flow_year, or a served "
    "corridor's own figure where the matrix has none; null where neither has one."
)
_FLOW_YEAR = "The year of annual_flow_bn where the remittance matrix gives it; null otherwise."
_FLOW_SOURCE = "Where annual_flow_bn comes from; null without a flow."


class CostCorridorSchema(Schema):
    corridor = fields.String(attribute="costs.key", **_meta("The corridor's countries, SRC-DST.", "USA-MEX"))
    source_country = fields.Function(
        lambda c: c.costs.key[:3],
        **meta("Sending country, ISO 3166-1 alpha-3 (or the World Bank's code: KSV).", "USA", type="string"),
    )
    destination_country = fields.Function(
        lambda c: c.costs.key[4:],
        **meta("Receiving country, ISO 3166-1 alpha-3 (or the World Bank's code: KSV, ANT).", "MEX", type="string"),
    )
    source_country_name = fields.String(attribute="costs.source_name", **_meta("Sending country.", "United States"))
    destination_country_name = fields.String(
        attribute="costs.destination_name", **_meta("Receiving country.", "Mexico")
    )
    from_currency = fields.String(
        allow_none=True,
        attribute="costs.from_currency",
        **_meta("Currency sent; null if the country's is not known.", "USD"),
    )
    to_currency = fields.String(
        allow_none=True,
        attribute="costs.to_currency",
        **_meta("Currency received; null if the country's is not known.", "MXN"),
    )
    latest_period = fields.String(**_meta(_LATEST_PERIOD, "2025Q3"))
    latest_published_period = fields.String(
        allow_none=True, **_meta("The period of latest_published_average_total_cost_pct.", "2020Q3")
    )
    latest_published_average_total_cost_pct = Rounded(
        allow_none=True, attribute="latest_published_average", **_meta(_LATEST_PUBLISHED, 5.34)
    )
    latest_computed_period = fields.String(
        allow_none=True, **_meta("The period of latest_computed_average_total_cost_pct.", "2025Q3")
    )
    latest_computed_average_total_cost_pct = Rounded(
        allow_none=True, attribute="latest_computed_average", **_meta(_LATEST_COMPUTED, 3.82)
    )
    annual_flow_bn: fields.Field = Rounded(allow_none=True, places=1, **_meta(_FLOW, 52.6))
    flow_year = fields.Integer(allow_none=True, **_meta(_FLOW_YEAR, 2021))
    flow_source = fields.String(allow_none=True, **_meta(_FLOW_SOURCE, "KNOMAD/World Bank Bilateral Remittance Matrix"))


class CostCorridorEntry(CamelCaseSchema, CostCorridorSchema):
    from_currency = fields.String(
        data_key="from",
        allow_none=True,
        attribute="costs.from_currency",
        **_meta("Currency sent; null if the country's is not known.", "USD"),
    )
    to_currency = fields.String(
        data_key="to",
        allow_none=True,
        attribute="costs.to_currency",
        **_meta("Currency received; null if the country's is not known.", "MXN"),
    )
    latest_published_period = fields.String(
        allow_none=True, **_meta("The period of latestPublishedAverageTotalCostPct.", "2020Q3")
    )
    latest_published_average_total_cost_pct = PercentText(
        allow_none=True, attribute="latest_published_average", **_meta(_LATEST_PUBLISHED, "5.34%")
    )
    latest_computed_period = fields.String(
        allow_none=True, **_meta("The period of latestComputedAverageTotalCostPct.", "2025Q3")
    )
    latest_computed_average_total_cost_pct = PercentText(
        allow_none=True, attribute="latest_computed_average", **_meta(_LATEST_COMPUTED, "3.82%")
    )
    annual_flow_bn = BillionsText(allow_none=True, **_meta(_FLOW, "$52.6B"))

    class Meta:
        exclude = ("source_country", "destination_country")
