"""The data in memory: immutable objects built once from a validated data file."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

COMPLIANCE_LEVELS = ("Low", "Medium", "High")
# where an interbank rate, or an offer, comes from
ECB, FRANKFURTER, SURVEY, DATA_FILE = "ECB", "Frankfurter", "World Bank RPW", "data file"
RATE_SOURCES = (ECB, FRANKFURTER, SURVEY, DATA_FILE)  # the order a pair's two sources are named in
SAMPLE = "sample"  # the data file's offers: illustrative prices, not surveyed
FLOWS_SOURCE = "KNOMAD/World Bank Bilateral Remittance Matrix"
RATE_RANGE = (1e-6, 1e9)  # units per one base: beyond these no currency is, and every derived figure stays finite
PAYOUT_METHODS = ("bank_deposit", "cash_pickup", "mobile_wallet", "home_delivery", "card")


@dataclass(frozen=True, slots=True)
class Offer:
    """One provider's terms on one corridor, fees in the source currency (docs/API.md, "Surveyed prices")."""

    provider_id: str
    provider: str
    spread_pct: float | None  # None: not disclosed
    flat_fee: float
    fee_pct: float
    settlement: str | None  # None: the survey gave no speed this service maps to
    payout_methods: tuple[str, ...]
    svc_score: int | None  # None: the survey scores no service
    source: str = SAMPLE
    period: str | None = None  # the survey's period, `2025Q3`
    collected: dt.date | None = None  # the day the survey collected it
    payout_currency: str | None = None  # what the recipient receives: None for the corridor's own currency
    disclosed: bool = True  # False: the service did not disclose its rate, so its FX margin is unknown
    firm_type: str | None = None
    margins: tuple[tuple[float, float], ...] = ()  # (amount, margin) of each price point the survey published
    promotion: bool = False  # the survey noted these as a promotion's, a marketing campaign's or a discount's prices
    # as the survey wrote them: how the sender pays, how the recipient collects ("; " between several), how fast
    payment_instrument: str | None = None
    pickup_method: str | None = None
    speed: str | None = None

    def fee(self, amount: float) -> float:
        return max(0.0, self.flat_fee + amount * self.fee_pct / 100)

    def margin(self, amount: float) -> float | None:
        if not self.margins:
            return self.spread_pct
        return min(self.margins, key=lambda point: abs(point[0] - amount))[1]


@dataclass(frozen=True, slots=True)
class Corridor:
    id: int
    from_currency: str
    to_currency: str
    source: str
    destination: str
    active: bool
    compliance: str | None  # None, and the next three: a corridor only the survey knows
    compliance_notes: str | None
    score: int | None
    annual_flow_bn: float | None
    offers: tuple[Offer, ...]
    source_country: str = ""  # ISO 3166-1 alpha-3, as the survey writes countries
    destination_country: str = ""
    flow_year: int | None = None  # the year of annual_flow_bn where a remittance matrix gives it; None: the data file's

    @property
    def flow_source(self) -> str | None:
        if self.flow_year is not None:
            return FLOWS_SOURCE
        return DATA_FILE if self.annual_flow_bn is not None else None

    @property
    def key(self) -> str:
        return f"{self.from_currency}_{self.to_currency}"

    @property
    def countries(self) -> str:
        """The country pair, `KEN-TZA`: the corridor's name when several share its currencies."""
        return f"{self.source_country}-{self.destination_country}"

    @property
    def pair(self) -> str:
        return f"{self.from_currency}\u2192{self.to_currency}"


@dataclass(frozen=True, slots=True)
class RateSource:
    source: str
    date: dt.date


@dataclass(frozen=True, slots=True)
class Rates:
    """Two rate tables, units per one `base`, and where each interbank rate comes from."""

    # plain dicts, never changed once built: a new data version builds new ones, so requests read them without a lock
    base: str
    interbank: Mapping[str, float]
    consumer: Mapping[str, float]
    sources: Mapping[str, RateSource]


def priced_from(rates: Rates, *codes: str) -> list[str]:
    """The currencies whose rates a pair is priced from: the base (its 1) only when both are the base."""
    return [code for code in dict.fromkeys(codes) if code != rates.base] or [rates.base]


@dataclass(frozen=True, slots=True)
class Dataset:
    as_of: dt.date
    reference_amount_usd: float
    rates: Rates
    providers: Mapping[str, str]  # id → name
    corridors: tuple[Corridor, ...]

    @property
    def active_corridors(self) -> tuple[Corridor, ...]:
        return tuple(sorted((c for c in self.corridors if c.active), key=lambda c: c.id))

    @property
    def currencies(self) -> tuple[str, ...]:
        return tuple(sorted(self.rates.interbank))


def build_dataset(raw: Mapping[str, Any]) -> Dataset:
    """Validated seed data as immutable objects, offers carrying provider names."""
    names = {p["id"]: p["name"] for p in raw["providers"]}
    rates, base = raw["rates"], raw["rates"]["base"]
    given = {code: RateSource(s["source"], s["date"]) for code, s in rates.get("sources", {}).items()}
    sources = {code: given.get(code, RateSource(DATA_FILE, raw["as_of"])) for code in rates["interbank"]}
    return Dataset(
        raw["as_of"],
        raw["reference_amount_usd"],
        Rates(base, dict(rates["interbank"]), dict(rates["consumer"]), with_base_source(sources, base)),
        names,
        tuple(_corridor(c, names) for c in raw["corridors"]),
    )


def with_base_source(sources: Mapping[str, RateSource], base: str) -> dict[str, RateSource]:
    """The sources with the base's own: 1 by definition, it takes the newest rates' source and date."""
    others = [source for code, source in sources.items() if code != base]
    newest = max(others, key=lambda s: (s.date, -RATE_SOURCES.index(s.source)), default=None)
    return {**sources, base: newest or sources[base]}


def _corridor(raw: Mapping[str, Any], names: Mapping[str, str]) -> Corridor:
    offers = []
    for offer in raw["offers"]:
        terms = {**offer, "payout_methods": tuple(offer["payout_methods"])}
        offers.append(Offer(terms.pop("provider"), names[offer["provider"]], **terms))
    return Corridor(**{**raw, "offers": tuple(offers)})
