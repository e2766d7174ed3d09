"""Query schemas of both groups: loaded per request, expanded into OpenAPI parameters.

A schema may set `required_if_any`: when any of its parameters is given, these become required
(Group B's `from`/`to` pair; Group B's `corridor` before `amount`, `payout` or `sort`).
"""

import re

from marshmallow import Schema, fields, validate

from corridor.domain.model import PAYOUT_METHODS
from corridor.domain.pricing import SORT_ORDERS
from schemas.fields import Amount, CorridorKey, CurrencyCode


class NoQuery(Schema):
    """An endpoint that takes no query parameters."""


class QuoteOptions(Schema):
    """How to price and order a corridor's providers."""

    amount = Amount(metadata={"description": "Send amount in the source currency: a plain decimal above 0, "
                                             "at most 1000000000, at most 2 decimals; default the reference amount.",
                              "example": "1000"})
    payout = fields.String(
        validate=validate.OneOf(PAYOUT_METHODS, error="must be one of: {choices}."),
        metadata={"description": "Keep only providers offering this payout method.", "example": "cash_pickup"},
    )
    sort = fields.String(
        load_default="cost",
        validate=validate.OneOf(tuple(SORT_ORDERS), error="must be one of: {choices}."),
        metadata={"description": "cost (default): cheapest first; speed: fastest first, then cost; "
                                 "score: best service score first, then cost.", "example": "speed"},
    )


class _CorridorRequired(Schema):
    corridor = CorridorKey(required=True, metadata={"description": "Corridor key FROM_TO, any case.", "example": "USD_MXN"})


class _CorridorOptional(Schema):
    corridor = CorridorKey(metadata={"description": "Corridor key FROM_TO, any case; omit it (and the options) "
                                                    "for every corridor.", "example": "USD_MXN"})


# marshmallow orders inherited fields from the last base to the first: `corridor` comes first
class CorridorQuery(QuoteOptions, _CorridorRequired):
    """Group A `/api/providers`: one corridor, required, and the quote options."""


class OptionalCorridorQuery(QuoteOptions, _CorridorOptional):
    """Group B `/api/poc/providers`: one corridor with the quote options, or nothing for every corridor."""

    required_if_any = ("corridor",)


class CurrencyPairQuery(Schema):
    """Group A `/api/midrate`: any pair of currencies in the rate tables."""

    from_currency = CurrencyCode(data_key="from", required=True, metadata={"description": "Currency sent, any case.", "example": "USD"})
    to_currency = CurrencyCode(data_key="to", required=True, metadata={"description": "Currency received, any case.", "example": "MXN"})


class OptionalCurrencyPairQuery(Schema):
    """Group B `/api/poc/corridors`: `from` and `to` pick one corridor; giving one makes both required."""

    required_if_any = ("from", "to")
    from_currency = CurrencyCode(data_key="from", metadata={"description": "Currency sent, any case.", "example": "USD"})
    to_currency = CurrencyCode(data_key="to", metadata={"description": "Currency received, any case.", "example": "MXN"})


ALL_QUERIES = (NoQuery, CorridorQuery, OptionalCorridorQuery, CurrencyPairQuery, OptionalCurrencyPairQuery)


def query_parameter_values() -> dict[str, re.Pattern]:
    """Each query parameter the API takes, with a pattern of the values some endpoint accepts."""
    accepted: dict[str, set[str]] = {}
    for query in ALL_QUERIES:
        for name, field in query().fields.items():
            accepted.setdefault(field.data_key or name, set()).add(_accepted_texts(field))
    return {name: re.compile("|".join(f"(?:{p})" for p in sorted(patterns))) for name, patterns in accepted.items()}


def _accepted_texts(field: fields.Field) -> str:
    if getattr(field, "pattern", ""):
        return field.pattern
    for validator in field.validators:
        if isinstance(validator, validate.OneOf):
            return "|".join(re.escape(str(choice)) for choice in validator.choices)
    return "(?!)"  # nothing to go by: no text is known good
