"""The data in memory: immutable objects built once from a validated data file."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

COMPLIANCE_LEVELS = ("Low", "Medium", "High")
ECB, FRANKFURTER, DATA_FILE = "ECB", "Frankfurter", "data file"  # where an interbank rate comes from
RATE_SOURCES = (ECB, FRANKFURTER, DATA_FILE)
RATE_RANGE = (1e-6, 1e9)  # units per one base: beyond these no currency is, and every derived figure stays finite
PAYOUT_METHODS = ("bank_deposit", "cash_pickup", "mobile_wallet", "home_delivery", "card")


@dataclass(frozen=True, slots=True)
class Provider:
    """A transfer provider: slug id and display name."""

    id: str
    name: str


@dataclass(frozen=True, slots=True)
class Offer:
    """One provider's terms on one corridor; fees in the source currency."""

    provider_id: str
    provider: str
    spread_pct: float
    flat_fee: float
    fee_pct: float
    settlement: str
    payout_methods: tuple[str, ...]
    svc_score: int


@dataclass(frozen=True, slots=True)
class Corridor:
    """A currency corridor FROM→TO with its offers."""

    id: int
    from_currency: str
    to_currency: str
    source: str
    destination: str
    active: bool
    compliance: str
    compliance_notes: str
    score: int
    annual_flow_bn: float
    offers: tuple[Offer, ...]

    @property
    def key(self) -> str:
        """The corridor key clients use, `FROM_TO`."""
        return f"{self.from_currency}_{self.to_currency}"

    @property
    def pair(self) -> str:
        """The corridor for people, `USD→MXN`."""
        return f"{self.from_currency}\u2192{self.to_currency}"


@dataclass(frozen=True, slots=True)
class RateSource:
    """Where an interbank rate comes from, and the day it is of."""

    source: str
    date: dt.date


@dataclass(frozen=True, slots=True)
class Rates:
    """Two rate tables, units per one `base`, and where each interbank rate comes from."""

    # plain dicts, never changed once built: a data version travels between processes as a pickle
    base: str
    interbank: Mapping[str, float]
    consumer: Mapping[str, float]
    sources: Mapping[str, RateSource]


def pair_sources(rates: Rates, *codes: str) -> list[RateSource]:
    """The sources of the rates a pair is priced from: the base's 1 is one only when both are the base."""
    used = [rates.sources[code] for code in codes if code != rates.base]
    return used or [rates.sources[rates.base]]


@dataclass(frozen=True, slots=True)
class Dataset:
    """Everything the service publishes, as loaded from one data file."""

    as_of: dt.date
    reference_amount_usd: float
    rates: Rates
    providers: tuple[Provider, ...]
    corridors: tuple[Corridor, ...]

    @property
    def active_corridors(self) -> tuple[Corridor, ...]:
        """Served corridors, by id."""
        return tuple(sorted((c for c in self.corridors if c.active), key=lambda c: c.id))

    @property
    def currencies(self) -> tuple[str, ...]:
        """Every currency code in the rate tables, sorted."""
        return tuple(sorted(self.rates.interbank))


def build_dataset(raw: Mapping[str, Any]) -> Dataset:
    """Turn validated seed data into immutable objects, offers carrying provider names."""
    names = {p["id"]: p["name"] for p in raw["providers"]}
    rates = raw["rates"]
    given = rates.get("sources", {})
    sources = {code: RateSource(given[code]["source"], given[code]["date"]) if code in given
               else RateSource(DATA_FILE, raw["as_of"]) for code in rates["interbank"]}
    return Dataset(
        as_of=raw["as_of"],
        reference_amount_usd=raw["reference_amount_usd"],
        rates=Rates(
            base=rates["base"],
            interbank=dict(rates["interbank"]),
            consumer=dict(rates["consumer"]),
            sources=with_base_source(sources, rates["base"]),
        ),
        providers=tuple(Provider(p["id"], p["name"]) for p in raw["providers"]),
        corridors=tuple(_corridor(c, names) for c in raw["corridors"]),
    )


def with_base_source(sources: Mapping[str, RateSource], base: str) -> dict[str, RateSource]:
    """The sources with the base's own: 1 by definition, it takes the newest rates' source and date."""
    others = [source for code, source in sources.items() if code != base]
    newest = max(others, key=lambda s: (s.date, -RATE_SOURCES.index(s.source)), default=None)
    return {**sources, base: newest or sources[base]}


def _corridor(raw: Mapping[str, Any], names: Mapping[str, str]) -> Corridor:
    offers = tuple(
        Offer(
            provider_id=o["provider"],
            provider=names[o["provider"]],
            spread_pct=o["spread_pct"],
            flat_fee=o["flat_fee"],
            fee_pct=o["fee_pct"],
            settlement=o["settlement"],
            payout_methods=tuple(o["payout_methods"]),
            svc_score=o["svc_score"],
        )
        for o in raw["offers"]
    )
    fields = {k: v for k, v in raw.items() if k != "offers"}
    return Corridor(**fields, offers=offers)
