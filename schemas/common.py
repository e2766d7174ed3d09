"""What the dump schemas share: a field's OpenAPI description, and the fields both groups declare alike."""

from __future__ import annotations

from typing import Any, TypeVar

from marshmallow import fields

from schemas.fields import Rounded

FieldT = TypeVar("FieldT", bound=fields.Field)


def described(field: FieldT, description: str, example: Any = None, omitted_when: str = "", **more: Any) -> FieldT:
    """`field` with its OpenAPI metadata, after any its class sets (a pattern); a nested field's example, if none,
    is built from its schema's; `omitted_when`: when an answer leaves it out; `more`: e.g. a Constant's type."""
    field.metadata = {
        **field.metadata,
        "description": description,
        **({} if example is None else {"example": example}),
        **({"x-omitted-when": omitted_when} if omitted_when else {}),
        **more,
    }
    return field


OK_MEANING = "true when the request succeeded, false on an error."
OK = described(fields.Constant(True), OK_MEANING, True, type="boolean")

RANK = described(fields.Integer(), "Position by true cost, 1 = cheapest.", 1)
SEND_AMOUNT = described(
    Rounded(allow_none=True),
    "Amount sent, source currency: `amount`, or the reference amount; with receive_amount, null when the rate is.",
    200.0,
)
PRICES_SOURCE = described(
    fields.String(attribute="offer.source"),
    "Where the prices come from: World Bank RPW (the World Bank's Remittance Prices Worldwide survey) or sample (the "
    "data file's illustrative figures).",
    "World Bank RPW",
)
SURVEY_PERIOD = described(
    fields.String(allow_none=True, attribute="offer.period"),
    "The survey's period, YYYYQn; null for the data file's.",
    "2025Q3",
)
COLLECTED = described(
    fields.Date(allow_none=True, attribute="offer.collected"),
    "The day the survey collected the prices, YYYY-MM-DD; null for the data file's.",
    "2025-08-19",
)
FIRM_TYPE = described(
    fields.String(allow_none=True, attribute="offer.firm_type"),
    "The survey's kind of firm: Bank, Money Transfer Operator, Mobile Operator, Post office…; null for the data "
    "file's.",
    "Money Transfer Operator",
)
PAYMENT_INSTRUMENT = described(
    fields.String(allow_none=True, attribute="offer.payment_instrument"),
    "How the sender pays, as the survey wrote it (Cash, Debit card, Credit card, Bank account transfer, Mobile "
    "money…); null for the data file's, and where the survey gave none.",
    "Debit card",
)
PICKUP_METHOD = described(
    fields.String(allow_none=True, attribute="offer.pickup_method"),
    "How the recipient collects, as the survey wrote it (Cash, Bank account, Mobile wallet…); several, of rows alike "
    'in all else, joined by "; ". Null for the data file\'s, and where the survey gave none.',
    "Bank account",
)
SPEED = described(
    fields.String(allow_none=True, attribute="offer.speed"),
    "The survey's speed, as written (Less than one hour, Same day, Next day, 2 days, 3-5 days, 6 days or more): "
    "settlement is its longest time. Null for the data file's, and where the survey gave none.",
    "Less than one hour",
)
SOURCE_COUNTRY = described(
    fields.String(attribute="corridor.source_country"), "Sending country, ISO 3166-1 alpha-3.", "USA"
)
DESTINATION_COUNTRY = described(
    fields.String(attribute="corridor.destination_country"), "Receiving country, ISO 3166-1 alpha-3.", "MEX"
)
COMPLIANCE = described(
    fields.String(allow_none=True, attribute="corridor.compliance"),
    "Compliance level: Low, Medium or High; null for a corridor only the survey has.",
    "Low",
)
PRICES = described(
    fields.String(),
    "Where its prices come from: the World Bank survey's period, YYYYQn, or sample (the data file's illustrative "
    "figures).",
    "sample",
)
