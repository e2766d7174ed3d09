"""What the schemas share: a field's OpenAPI description, and the dumped fields both groups declare alike."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from marshmallow import fields

FieldT = TypeVar("FieldT", bound=fields.Field)


def described(field: FieldT, example: Any = None, omitted_when: str = "", **more: Any) -> Callable[[str], FieldT]:
    """`field` with its OpenAPI metadata, once called with its description (its lines joined by single spaces); a
    nested field's example, if none, is generated; `omitted_when`: when an answer leaves the field out; `more`: e.g.
    a Constant's type, or a query parameter's `quoted_example`."""
    given = {"example": example, "x-omitted-when": omitted_when or None, **more}
    more = {key: value for key, value in given.items() if value is not None}

    def with_description(description: str) -> FieldT:
        field.metadata = {**field.metadata, "description": " ".join(description.split()), **more}
        return field

    return with_description


# one instance each for several schemas: a schema instance binds deep copies of its fields, never these
OK_MEANING = "true when the request succeeded, false on an error."
OK = described(fields.Constant(True), True, type="boolean")(OK_MEANING)

SOURCE_COUNTRY = described(fields.String(attribute="corridor.source_country"), "USA")("""
    Sending country, ISO 3166-1 alpha-3.""")
DESTINATION_COUNTRY = described(fields.String(attribute="corridor.destination_country"), "MEX")("""
    Receiving country, ISO 3166-1 alpha-3.""")
COMPLIANCE = described(fields.String(allow_none=True, attribute="corridor.compliance"), "Low")("""
    Compliance level: Low, Medium or High; null for a corridor only the survey has.""")
PRICES = described(fields.String(), "sample")("""
    Where its prices come from: the World Bank survey's period, YYYYQn, or sample (the data file's illustrative
    figures).""")
KEY = described(fields.String(attribute="corridor.key"), "USD_MXN")("""
    The currency pair FROM_TO, as the `corridor` query parameter takes it when no other active corridor has it; its
    countries' codes, SRC-DST, always name this one too.""")
FLOW_YEAR = described(fields.Integer(allow_none=True, attribute="corridor.flow_year"), 2021)("""
    The year of the annual flow where the remittance matrix gives it; null for the data file's figure.""")
FLOW_SOURCE = described(
    fields.String(allow_none=True, attribute="corridor.flow_source"), "KNOMAD/World Bank Bilateral Remittance Matrix"
)("""
    Where the annual flow comes from: the KNOMAD/World Bank Bilateral Remittance Matrix, or the data file where the
    matrix has no figure for the pair; null without a flow.""")
BENCHMARK_PRICES = described(fields.String(), "sample")("""
    The corridors the figures count: surveyed (those the World Bank surveyed) whenever the survey is imported, or sample
    (the data file's) when it is not. The two are never pooled.""")
