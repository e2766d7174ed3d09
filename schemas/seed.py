"""Load schemas for the data file: every validation rule docs/DATA.md lists."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from marshmallow import Schema, ValidationError, fields, post_load, validate, validates_schema

from corridor.domain import model
from corridor.domain.countries import country_code, is_country, is_known_currency
from corridor.domain.model import RATE_RANGE, Dataset
from schemas.fields import IsoDate, StrictBool, StrictFloat

_SETTLEMENT = re.compile(r"([1-9][0-9]*) (minute|hour|day)(s?)")

currency_code = validate.Regexp(r"[A-Z]{3}\Z", error="Must be a three-letter upper-case currency code such as USD.")
percent = validate.Range(min=0, max=100, max_inclusive=False, error="Must be at least 0 and below 100.")
# bounds no real figure comes near, so that every figure derived from them is a finite number
amount = validate.Range(min=0, max=1e9, error="Must be from 0 to 1000000000.")
rate = validate.Range(min=RATE_RANGE[0], max=RATE_RANGE[1], error="Must be from 0.000001 to 1000000000.")
score = validate.Range(min=0, max=100, error="Must be an integer from 0 to 100.")
text = validate.Length(min=1, error="Must not be empty.")
some_offers = validate.Length(min=1, error="Must hold at least one offer.")
some_providers = validate.Length(min=1, error="Must list at least one provider.")
some_corridors = validate.Length(min=1, error="Must list at least one corridor.")
slug = validate.Regexp(r"[a-z0-9]+(-[a-z0-9]+)*\Z", error="Must be a lower-case slug such as 'western-union'.")


def one_of(choices: tuple) -> validate.OneOf:
    return validate.OneOf(choices, error="Must be one of: {choices}.")


def country(value: str) -> None:
    if not is_country(value):
        raise ValidationError("Must be an ISO 3166-1 alpha-3 country code, upper case, such as KEN.")


def settlement_text(value: str) -> None:
    match = _SETTLEMENT.fullmatch(value)
    if not match or (match[1] == "1") != (match[3] == ""):
        raise ValidationError(
            "Must be a number from 1 then minute, hour or day, plural exactly when the number "
            "is not 1, such as '1 hour' or '2 days'."
        )


def repeated(values: list[str]) -> list[str]:
    return sorted(v for v, n in Counter(values).items() if n > 1)


def distinct(values: list[str]) -> None:
    if twice := repeated(values):
        raise ValidationError(f"Must not repeat: {', '.join(twice)}.")


def rate_table() -> fields.Dict:
    """Currency code → units per one base: every rate a finite number above 0."""
    return fields.Dict(
        keys=fields.String(validate=currency_code),
        values=StrictFloat(validate=rate),
        required=True,
        validate=validate.Length(min=1, error="Must hold at least one currency."),
    )


class RateSourceSeedSchema(Schema):
    source = fields.String(required=True, validate=one_of((model.ECB, model.FRANKFURTER, model.DATA_FILE)))
    date = IsoDate(required=True)


class RatesSeedSchema(Schema):
    base = fields.String(required=True, validate=currency_code)
    interbank = rate_table()
    consumer = rate_table()
    # optional: a rate not listed is the data file's own, of as_of
    sources = fields.Dict(keys=fields.String(validate=currency_code), values=fields.Nested(RateSourceSeedSchema))

    @validates_schema
    def check_tables(self, data: dict, **kwargs: Any) -> None:
        interbank, consumer = data["interbank"], data["consumer"]
        if odd := sorted(set(interbank) ^ set(consumer)):
            raise ValidationError(
                f"Both tables must hold the same currencies; differing: {', '.join(odd)}.", "consumer"
            )
        if unknown := sorted(code for code in interbank if not is_known_currency(code)):
            raise ValidationError(f"Not ISO 4217 currencies known to CLDR: {', '.join(unknown)}.", "interbank")
        for needed in ("USD", "EUR"):
            if needed not in interbank:
                raise ValidationError(f"Must include {needed}.", "interbank")
        for name, table in (("interbank", interbank), ("consumer", consumer)):
            if table.get(data["base"]) != 1:
                raise ValidationError(f"The base {data['base']} must be in the table with value 1.", name)
        sources = data.get("sources", {})
        if odd := sorted(set(sources) - set(interbank)):
            raise ValidationError(f"Must name only currencies of the tables; not in them: {', '.join(odd)}.", "sources")
        if data["base"] in sources:
            raise ValidationError(f"Must not list the base {data['base']}: it is 1 by definition.", "sources")


class ProviderSeedSchema(Schema):
    id = fields.String(required=True, validate=slug)
    name = fields.String(required=True, validate=text)


class OfferSeedSchema(Schema):
    provider = fields.String(required=True)
    spread_pct = StrictFloat(required=True, validate=percent)
    flat_fee = StrictFloat(required=True, validate=amount)
    fee_pct = StrictFloat(required=True, validate=percent)
    settlement = fields.String(required=True, validate=settlement_text)
    payout_methods = fields.List(
        fields.String(validate=one_of(model.PAYOUT_METHODS)),
        required=True,
        validate=[validate.Length(min=1, error="Must name at least one payout method."), distinct],
    )
    svc_score = fields.Integer(required=True, strict=True, validate=score)


class CorridorSeedSchema(Schema):
    # a signed 32-bit integer, as the database keeps the ids the survey gives corridors beside the file's
    id = fields.Integer(
        required=True,
        strict=True,
        validate=validate.Range(min=1, max=2**31 - 1, error="Must be a whole number from 1 to 2147483647."),
    )
    from_currency = fields.String(required=True, validate=currency_code)
    to_currency = fields.String(required=True, validate=currency_code)
    source = fields.String(required=True, validate=text)
    destination = fields.String(required=True, validate=text)
    active = StrictBool(required=True)
    compliance = fields.String(required=True, validate=one_of(model.COMPLIANCE_LEVELS))
    compliance_notes = fields.String(required=True)
    score = fields.Integer(required=True, strict=True, validate=score)
    annual_flow_bn = StrictFloat(required=True, validate=amount)
    offers = fields.List(fields.Nested(OfferSeedSchema), required=True, validate=some_offers)
    # optional: by default, the code of the country `source` and `destination` name (CLDR's English names)
    source_country = fields.String(validate=country)
    destination_country = fields.String(validate=country)

    @validates_schema
    def check_pair_and_offers(self, data: dict, **kwargs: Any) -> None:
        if data["from_currency"] == data["to_currency"]:
            raise ValidationError("Must differ from from_currency.", "to_currency")
        if twice := repeated([o["provider"] for o in data["offers"]]):
            raise ValidationError(f"Must hold one offer per provider; repeated: {', '.join(twice)}.", "offers")
        for code, name in (("source_country", "source"), ("destination_country", "destination")):
            if code not in data and country_code(data[name]) is None:
                raise ValidationError(
                    f"{data[name]!r} is not a country's English name as CLDR writes it: give "
                    f"{code}, the ISO 3166-1 alpha-3 code, such as KEN.",
                    name,
                )

    @post_load
    def with_countries(self, data: dict, **kwargs: Any) -> dict:
        data.setdefault("source_country", country_code(data["source"]))
        data.setdefault("destination_country", country_code(data["destination"]))
        return data


class SeedSchema(Schema):
    as_of = IsoDate(required=True)
    reference_amount_usd = StrictFloat(
        required=True, validate=validate.Range(min=1, max=1e9, error="Must be from 1 to 1000000000.")
    )
    rates = fields.Nested(RatesSeedSchema, required=True)
    providers = fields.List(fields.Nested(ProviderSeedSchema), required=True, validate=some_providers)
    corridors = fields.List(fields.Nested(CorridorSeedSchema), required=True, validate=some_corridors)

    @validates_schema
    def check_references(self, data: dict, **kwargs: Any) -> None:
        errors: dict[str, Any] = {}
        for key in ("id", "name"):
            if twice := repeated([p[key] for p in data["providers"]]):
                errors.setdefault("providers", []).append(
                    f"Provider {key}s must be unique; repeated: {', '.join(twice)}."
                )
        provider_ids = {p["id"] for p in data["providers"]}
        currencies = data["rates"]["interbank"]
        seen: set = set()  # the ids, currency pairs and ("countries", SRC, DST) of the corridors before
        for index, corridor in enumerate(data["corridors"]):
            problems: dict[str, Any] = {}
            if corridor["id"] in seen:
                problems["id"] = [f"Corridor id {corridor['id']} is used twice."]
            pair = (corridor["from_currency"], corridor["to_currency"])
            if pair in seen:
                problems["to_currency"] = [f"The pair {pair[0]}→{pair[1]} is listed twice."]
            countries = ("countries", corridor["source_country"], corridor["destination_country"])
            if countries in seen:
                problems["destination_country"] = [f"The countries {countries[1]}-{countries[2]} are listed twice."]
            seen.update((corridor["id"], pair, countries))
            for name in ("from_currency", "to_currency"):
                if corridor[name] not in currencies:
                    problems.setdefault(name, []).append(f"{corridor[name]} is not in the rate tables.")
            for at, offer in enumerate(corridor["offers"]):
                if offer["provider"] not in provider_ids:
                    problems.setdefault("offers", {})[at] = {
                        "provider": [f"No provider has the id {offer['provider']!r}."]
                    }
            if problems:
                errors.setdefault("corridors", {})[index] = problems
        if errors:
            raise ValidationError(errors)

    @post_load
    def make_dataset(self, data: dict, **kwargs: Any) -> Dataset:
        return model.build_dataset(data)
