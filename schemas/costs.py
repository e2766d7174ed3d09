"""Dump schemas of the survey's cost over time: Group A's numbers (snake_case), Group B's display strings (camelCase).

Every figure is a percentage at 2 decimals, computed by the World Bank's method (corridor/domain/costs.py)."""

from marshmallow import Schema, fields, pre_dump

from corridor.domain.model import SURVEY
from schemas.fields import PercentText, Rounded

_SOURCE = {"description": "Where the figures come from: the World Bank's Remittance Prices Worldwide survey.",
           "example": SURVEY, "type": "string"}
_AVERAGE = ("The simple mean of the total cost % at the USD 200 point over the period's transparent observations, "
            "each product counting once; null if none was transparent.")
_AVERAGE_500 = "The same at the USD 500 point; null if no transparent observation gave one."
_SMART = ("SmaRT: the mean total cost % of the three cheapest transparent services that deliver within 5 days (of "
          "all of them if fewer); null if none does.")
_LOWEST = "The lowest total cost % at the USD 200 point over the transparent observations; null if none."
_BY_FIRM_TYPE = "The average by kind of firm (Bank, Money Transfer Operator, …), over its transparent observations."
_GLOBAL_AVERAGE = ("The simple mean of the total cost % at the USD 200 point over every transparent observation of "
                   "the period, pooled (not a mean of corridor averages).")
_GLOBAL_SMART = "The mean of the corridors' SmaRT figures."
_CORRIDORS = "Corridors with an average this period."
_AT_5, _AT_3 = ("Corridors whose average, to 2 decimals, is at most 5 %: the SDG 10.c ceiling.",
                "Corridors whose average, to 2 decimals, is at most 3 %: the SDG 10.c target.")
_BY_REGION = ("The pooled average by receiving region, where the rows name regions (the published workbook does; "
              "the shipped rows do not): an empty object otherwise.")


def _meta(description: str, example: object) -> dict:
    return {"metadata": {"description": description, "example": example}}


class PeriodCostsSchema(Schema):
    period = fields.String(**_meta("The survey's period, YYYYQn.", "2025Q1"))
    average_total_cost_pct = Rounded(allow_none=True, attribute="average", **_meta(_AVERAGE, 11.14))
    average_total_cost_pct_500 = Rounded(allow_none=True, attribute="average_500", **_meta(_AVERAGE_500, 6.03))
    smart_pct = Rounded(allow_none=True, attribute="smart", **_meta(_SMART, 2.31))
    lowest_total_cost_pct = Rounded(allow_none=True, attribute="lowest", **_meta(_LOWEST, 1.98))
    observations = fields.Integer(**_meta("The services surveyed, a row each.", 16))
    transparent_observations = fields.Integer(**_meta("Those that disclosed their rate: the averages' rows.", 16))
    by_firm_type = fields.Dict(keys=fields.String(), values=Rounded(), **_meta(
        _BY_FIRM_TYPE, {"Bank": 14.49, "Mobile Operator": 1.98, "Money Transfer Operator": 4.97}))


class CostsSchema(Schema):
    corridor = fields.String(attribute="key", **_meta("The corridor's countries, SRC-DST.", "KEN-TZA"))
    source = fields.Constant(SURVEY, metadata=_SOURCE)
    from_currency = fields.String(attribute="corridor.from_currency", **_meta("Currency sent.", "KES"))
    to_currency = fields.String(attribute="corridor.to_currency", **_meta("Currency received.", "TZS"))
    periods = fields.List(fields.Nested(PeriodCostsSchema),
                          metadata={"description": "One entry per surveyed period, oldest first."})


class GlobalPeriodSchema(Schema):
    period = fields.String(**_meta("The survey's period, YYYYQn.", "2025Q3"))
    average_total_cost_pct = Rounded(allow_none=True, attribute="average", **_meta(_GLOBAL_AVERAGE, 22.61))
    smart_pct = Rounded(allow_none=True, attribute="smart", **_meta(_GLOBAL_SMART, 7.34))
    observations = fields.Integer(**_meta("The services surveyed this period, a row each.", 80))
    transparent_observations = fields.Integer(**_meta("Those that disclosed their rate.", 80))
    corridors = fields.Integer(**_meta(_CORRIDORS, 8))
    corridors_at_or_under_5_pct = fields.Integer(**_meta(_AT_5, 0))
    corridors_at_or_under_3_pct = fields.Integer(**_meta(_AT_3, 0))
    by_region = fields.Dict(keys=fields.String(), values=Rounded(), **_meta(_BY_REGION, {}))


class GlobalCostsSchema(Schema):
    """Dumped from the periods themselves."""

    source = fields.Constant(SURVEY, metadata=_SOURCE)
    periods = fields.List(fields.Nested(GlobalPeriodSchema),
                          metadata={"description": "One entry per surveyed period, oldest first."})

    @pre_dump
    def from_periods(self, periods: tuple, **kwargs: object) -> dict:
        return {"periods": periods}


class SurveyBenchmarkSchema(GlobalPeriodSchema):
    """The latest period's global figures, in the benchmark."""

    source = fields.Constant(SURVEY, metadata=_SOURCE)

    class Meta:
        exclude = ("by_region", "observations", "transparent_observations")


# --- Group B ------------------------------------------------------------------------------------------


def _ok() -> fields.Constant:
    return fields.Constant(True, metadata={"description": "true when the request succeeded, false on an error.",
                                           "example": True, "type": "boolean"})


class PeriodCostsEntry(Schema):
    period = fields.String(**_meta("The survey's period, YYYYQn.", "2025Q1"))
    averageTotalCostPct = PercentText(allow_none=True, attribute="average", **_meta(_AVERAGE, "11.14%"))
    averageTotalCostPct500 = PercentText(allow_none=True, attribute="average_500", **_meta(_AVERAGE_500, "6.03%"))
    smartPct = PercentText(allow_none=True, attribute="smart", **_meta(_SMART, "2.31%"))
    lowestTotalCostPct = PercentText(allow_none=True, attribute="lowest", **_meta(_LOWEST, "1.98%"))
    observations = fields.Integer(**_meta("The services surveyed, a row each.", 16))
    transparentObservations = fields.Integer(attribute="transparent_observations",
                                             **_meta("Those that disclosed their rate: the averages' rows.", 16))
    byFirmType = fields.Dict(keys=fields.String(), values=PercentText(), attribute="by_firm_type", **_meta(
        _BY_FIRM_TYPE, {"Bank": "14.49%", "Mobile Operator": "1.98%", "Money Transfer Operator": "4.97%"}))


class CostsResponse(Schema):
    ok = _ok()
    corridor = fields.String(attribute="key", **_meta("The corridor's countries, SRC-DST.", "KEN-TZA"))
    source = fields.Constant(SURVEY, metadata=_SOURCE)
    from_currency = fields.String(data_key="from", attribute="corridor.from_currency", **_meta("Currency sent.", "KES"))
    to_currency = fields.String(data_key="to", attribute="corridor.to_currency", **_meta("Currency received.", "TZS"))
    count = fields.Function(lambda costs: len(costs.periods), metadata={
        "description": "Number of entries in the list that follows.", "example": 2, "type": "integer"})
    periods = fields.List(fields.Nested(PeriodCostsEntry),
                          metadata={"description": "One entry per surveyed period, oldest first."})


class GlobalPeriodEntry(Schema):
    period = fields.String(**_meta("The survey's period, YYYYQn.", "2025Q3"))
    averageTotalCostPct = PercentText(allow_none=True, attribute="average", **_meta(_GLOBAL_AVERAGE, "22.61%"))
    smartPct = PercentText(allow_none=True, attribute="smart", **_meta(_GLOBAL_SMART, "7.34%"))
    observations = fields.Integer(**_meta("The services surveyed this period, a row each.", 80))
    transparentObservations = fields.Integer(attribute="transparent_observations",
                                             **_meta("Those that disclosed their rate.", 80))
    corridors = fields.Integer(**_meta(_CORRIDORS, 8))
    corridorsAtOrUnder5Pct = fields.Integer(attribute="corridors_at_or_under_5_pct", **_meta(_AT_5, 0))
    corridorsAtOrUnder3Pct = fields.Integer(attribute="corridors_at_or_under_3_pct", **_meta(_AT_3, 0))
    byRegion = fields.Dict(keys=fields.String(), values=PercentText(), attribute="by_region", **_meta(_BY_REGION, {}))


class GlobalCostsResponse(Schema):
    ok = _ok()
    source = fields.Constant(SURVEY, metadata=_SOURCE)
    count = fields.Integer(**_meta("Number of entries in the list that follows.", 2))
    periods = fields.List(fields.Nested(GlobalPeriodEntry),
                          metadata={"description": "One entry per surveyed period, oldest first."})

    @pre_dump
    def from_periods(self, periods: tuple, **kwargs: object) -> dict:
        return {"count": len(periods), "periods": periods}


class SurveyBenchmarkEntry(GlobalPeriodEntry):
    """The latest period's global figures, in Group B's benchmark."""

    source = fields.Constant(SURVEY, metadata=_SOURCE)

    class Meta:
        exclude = ("byRegion", "observations", "transparentObservations")
