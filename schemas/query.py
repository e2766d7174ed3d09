"""Query schemas of both groups: loaded per request, expanded into OpenAPI parameters."""

from marshmallow import Schema

from schemas.fields import CorridorKey, CurrencyCode


class NoQuery(Schema):
    """An endpoint that takes no query parameters."""


class CorridorQuery(Schema):
    """Group A `/api/providers`: one corridor, required."""

    corridor = CorridorKey(required=True, metadata={"description": "Corridor key FROM_TO, any case.", "example": "USD_MXN"})


class OptionalCorridorQuery(Schema):
    """Group B `/api/poc/providers`: one corridor, or every corridor when omitted."""

    corridor = CorridorKey(metadata={"description": "Corridor key FROM_TO, any case; omit it for every corridor.", "example": "USD_MXN"})


class CurrencyPairQuery(Schema):
    """Group A `/api/midrate`: any pair of currencies in the rate tables."""

    from_currency = CurrencyCode(data_key="from", required=True, metadata={"description": "Currency sent, any case.", "example": "USD"})
    to_currency = CurrencyCode(data_key="to", required=True, metadata={"description": "Currency received, any case.", "example": "MXN"})


class OptionalCurrencyPairQuery(Schema):
    """Group B `/api/poc/corridors`: `from` and `to` pick one corridor; giving one makes both required."""

    required_together = (("from", "to"),)
    from_currency = CurrencyCode(data_key="from", metadata={"description": "Currency sent, any case; needs `to`.", "example": "USD"})
    to_currency = CurrencyCode(data_key="to", metadata={"description": "Currency received, any case; needs `from`.", "example": "MXN"})


ALL_QUERIES = (NoQuery, CorridorQuery, OptionalCorridorQuery, CurrencyPairQuery, OptionalCurrencyPairQuery)


def query_parameter_names() -> frozenset[str]:
    """Every query parameter name the API takes."""
    return frozenset(f.data_key or n for query in ALL_QUERIES for n, f in query().fields.items())
