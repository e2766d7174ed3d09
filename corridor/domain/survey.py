"""The World Bank's Remittance Prices Worldwide (RPW) survey as offers: each country pair's latest period; every rule
here is stated in docs/API.md ("Surveyed prices") and docs/DATA.md."""

from __future__ import annotations

import dataclasses
import datetime as dt
import math
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from statistics import median

from corridor.domain.costs import settlement
from corridor.domain.countries import country_currency, country_name
from corridor.domain.history import NoHistory, RateHistory
from corridor.domain.model import PAYOUT_METHODS, SURVEY, Corridor, Dataset, Offer, Rates, RateSource
from corridor.domain.observations import (
    Observation,
    OutOfBounds,
    PricePoint,
    Survey,
    bounded,
    firm_name,
    last_period,
    payout_methods,
)
from corridor.domain.pricing import corridor_figures

USD = "USD"
USD_LIKE = 2.0  # a rate within this factor of the USD rate, where the destination currency has none to compare, is USD
MAX_PASSES = 4  # a rate implied in one pass lets the next decide the rows sent in that currency
Implied = dict[str, tuple[float, dt.date]]  # a currency's rate per base, and the day it is of


@dataclass(eq=False)
class _Pair:
    """A country pair's rows, the data file's corridor of its countries, and the currencies they are priced in."""

    countries: tuple[str, str]
    rows: list[Observation]
    corridor: Corridor | None
    sending: str
    receiving: str | None


@dataclass(frozen=True, slots=True)
class _Row:
    """An observation with the currency its amounts are really in, and its payout currency."""

    observation: Observation
    pair: _Pair
    sent_in: str = ""
    payout: str = ""


@dataclass
class _RateBook:
    """Units per base of each currency: the data's, then those the survey implies; on a day, the history's."""

    interbank: dict[str, float]
    history: RateHistory
    implied: dict[str, RateSource] = field(default_factory=dict)

    def cross(self, from_code: str, to_code: str, day: dt.date) -> float | None:
        """Units of `to_code` per `from_code`, on `day` where the history has both, else as the rates stand."""
        if from_code != to_code:
            try:
                return self.history.on(from_code, to_code, day).rate
            except (NoHistory, KeyError):
                pass
        low, high = self.interbank.get(from_code), self.interbank.get(to_code)
        return None if low is None or high is None else high / low

    def add(self, implied: Implied) -> None:
        self.interbank.update({code: rate for code, (rate, _) in implied.items()})
        self.implied.update({code: RateSource(SURVEY, day) for code, (_, day) in implied.items()})


def with_survey(dataset: Dataset, survey: Survey | None, history: RateHistory) -> tuple[Dataset, list[str]]:
    """The dataset with the survey's offers in place of a data-file corridor's of the same countries, or as corridors of
    their own, and with the rates the survey implies; and what was left out, one line each."""
    if survey is None or not survey.latest:
        return dataset, []
    notes: list[str] = []
    book = _RateBook(dict(dataset.rates.interbank), history)
    pairs = _pairs(dataset, _in_bounds(survey.latest, last_period(dt.date.today()), notes))
    by_pair: dict[tuple[str, str], list[_Row]] = {}
    for row in _decide(pairs, book, notes):
        by_pair.setdefault(row.pair.countries, []).append(row)
    ids = {c.id: c for c in dataset.corridors}
    replaced: dict[int, Corridor] = {}
    added: list[Corridor] = []
    for pair in pairs:
        offers = _offers(by_pair.get(pair.countries, []), pair, book, notes)
        name = "-".join(pair.countries)
        new_id = survey.corridor_ids.get(pair.countries)
        if pair.corridor is not None and offers:
            replaced[pair.corridor.id] = dataclasses.replace(pair.corridor, offers=offers)
        elif pair.corridor is not None:
            notes.append(f"{name}: no surveyed row can be priced; the data file's offers stay.")
        elif not offers or pair.receiving is None:
            notes.append(f"{name}: no surveyed row can be priced; no corridor.")
        elif new_id is None or new_id in ids:
            notes.append(
                f"{name}: left out: its id {new_id} is the data file's corridor "
                f"{ids[new_id].pair if new_id in ids else '?'}'s too; the data file's ids must "
                "leave the survey's to it: give the file's corridor another id "
                "(GET /api/corridors lists the ids served)."
            )
        else:
            src, dst = pair.countries
            names = country_name(src), country_name(dst)
            # a corridor only the survey knows: no compliance level, notes, score or flow
            new = Corridor(new_id, pair.sending, pair.receiving, *names, True, None, None, None, None, offers, src, dst)
            added.append(new)
    surveyed = dataclasses.replace(dataset, rates=_with_implied(dataset.rates, book))
    for corridor in [*replaced.values(), *added]:
        try:
            corridor_figures(surveyed, corridor)
        except Exception as err:  # whatever a stored row holds, the rest of the survey is served
            notes.append(
                f"{corridor.countries}: cannot be served ({type(err).__name__}: {err}); "
                + ("the data file's offers stay." if corridor.id in replaced else "left out.")
            )
            replaced.pop(corridor.id, None)
            added = [c for c in added if c is not corridor]
    corridors = tuple(replaced.get(c.id, c) for c in dataset.corridors) + tuple(sorted(added, key=lambda c: c.id))
    return dataclasses.replace(surveyed, corridors=corridors), notes


def _in_bounds(observations: Iterable[Observation], last: str, notes: list[str]) -> list[Observation]:
    kept, left = [], Counter[tuple[str, str]]()
    for observation in observations:
        try:
            kept.append(bounded(observation, last))
        except OutOfBounds as err:
            left[f"{observation.source_country}-{observation.destination_country}", str(err)] += 1
    notes.extend(f"{pair}: {count} row(s) left out: {reason}." for (pair, reason), count in sorted(left.items()))
    return kept


def _pairs(dataset: Dataset, observations: Iterable[Observation]) -> list[_Pair]:
    grouped: dict[tuple[str, str], list[Observation]] = {}
    for observation in observations:
        grouped.setdefault((observation.source_country, observation.destination_country), []).append(observation)
    in_file = {(c.source_country, c.destination_country): c for c in dataset.corridors}
    pairs = []
    for countries, rows in grouped.items():
        corridor = in_file.get(countries)
        if corridor is None:
            # the currency most rows are sent in (the first by code of equal counts); the destination's on the
            # newest collection day
            counts = Counter(row.currency for row in rows)
            sending = min(counts, key=lambda code: (-counts[code], code))
            receiving = country_currency(countries[1], max(row.day for row in rows))
        else:
            sending, receiving = corridor.from_currency, corridor.to_currency
        pairs.append(_Pair(countries, rows, corridor, sending, receiving))
    return pairs


def _decide(pairs: list[_Pair], book: _RateBook, notes: list[str]) -> list[_Row]:
    """Each row's real sending currency and payout currency, in passes: one pass's implied rates decide more rows."""
    waiting = [_Row(observation, pair) for pair in pairs for observation in pair.rows]
    decided: list[_Row] = []
    for _ in range(MAX_PASSES):
        still: list[_Row] = []
        for row in waiting:
            done = _decided(row, book)
            (decided if done else still).append(done or row)
        implied = _implied(decided, book) or _denominated(pairs, book)
        book.add(implied)
        progress, waiting = len(still) < len(waiting), still
        if not (progress or implied):
            break
    if waiting:
        codes = sorted({row.observation.currency for row in waiting})
        notes.append(f"{len(waiting)} row(s) left out: no rate for {', '.join(codes)} is known or implied.")
    return decided


def _decided(row: _Row, book: _RateBook) -> _Row | None:
    """The row with its sending and payout currencies, or None while a rate it needs is unknown."""
    observation, receiving = row.observation, row.pair.receiving or USD
    sent_in, usd = observation.currency, book.interbank[USD]  # the data file has it (schemas/seed.py)
    sending = book.interbank.get(sent_in)
    point = observation.cc1
    # amounts that equal their US-dollar denomination in a currency far from the dollar are dollars, mislabelled
    if sent_in != USD and point.denomination and math.isclose(point.amount, point.denomination):
        if sending is None:
            return None
        if _factor(sending / usd) > USD_LIKE:
            sent_in, sending = USD, usd
    rate = observation.disclosed_rate
    if rate is None:
        return dataclasses.replace(row, sent_in=sent_in, payout=receiving)  # no rate to tell by: the destination's
    estimated = sending is None
    if sending is None:
        if not point.denomination:
            return None
        sending = usd * point.amount / point.denomination  # the survey's own sense of the dollar's worth

    def expected(code: str) -> float:
        """Units of `code` per unit sent: on the collection day where the history has both, else as rates stand."""
        if estimated:
            return book.interbank[code] / sending
        known = book.cross(sent_in, code, observation.day)
        assert known is not None, "asked only of currencies with a rate"
        return known

    if receiving == USD:
        payout = USD
    elif receiving not in book.interbank:
        if estimated:
            return None
        payout = USD if _factor(rate / expected(USD)) <= USD_LIKE else receiving
    else:
        payout = min((USD, receiving), key=lambda code: _factor(rate / expected(code)))
    return dataclasses.replace(row, sent_in=sent_in, payout=payout)


def _factor(ratio: float) -> float:
    return max(ratio, 1 / ratio)


def _implied(rows: list[_Row], book: _RateBook) -> Implied:
    """The rates per base the rows imply for currencies without one: the median of the newest collection day's."""
    found: dict[str, list[tuple[dt.date, float]]] = {}
    for row in rows:
        rate = row.observation.disclosed_rate
        sending, payout = book.interbank.get(row.sent_in), book.interbank.get(row.payout)
        if rate is not None and payout is None and sending is not None:
            found.setdefault(row.payout, []).append((row.observation.day, rate * sending))
        elif rate is not None and sending is None and payout is not None:
            found.setdefault(row.sent_in, []).append((row.observation.day, payout / rate))
    return _newest_median(found)


def _denominated(pairs: list[_Pair], book: _RateBook) -> Implied:
    """The rates per base of sending currencies nothing else gives, from the US dollars each row's `cc1` aimed at."""
    usd = book.interbank[USD]
    found: dict[str, list[tuple[dt.date, float]]] = {}
    for observation in (observation for pair in pairs for observation in pair.rows):
        point, code = observation.cc1, observation.currency
        # an amount equal to its denomination is dollars mislabelled, not a rate
        if code not in book.interbank and point.denomination and not math.isclose(point.amount, point.denomination):
            found.setdefault(code, []).append((observation.day, usd * point.amount / point.denomination))
    return _newest_median(found)


def _newest_median(found: dict[str, list[tuple[dt.date, float]]]) -> Implied:
    implied = {}
    for code, values in found.items():
        newest = max(day for day, _ in values)
        implied[code] = (median(value for day, value in values if day == newest), newest)
    return implied


def _offers(rows: list[_Row], pair: _Pair, book: _RateBook, notes: list[str]) -> tuple[Offer, ...]:
    """The pair's offers, priced in the corridor's sending currency; rows alike in every figure served are one."""
    offers: dict[Offer, Offer] = {}
    for row in rows:
        observation = row.observation
        scale = 1.0 if row.sent_in == pair.sending else book.cross(row.sent_in, pair.sending, observation.day)
        if scale is None:
            notes.append(
                f"{observation.source_country}-{observation.destination_country} {observation.firm}: sent in "
                f"{row.sent_in}, which has no rate to {pair.sending}; left out."
            )
            continue
        offer = _offer(row, scale)
        alike = dataclasses.replace(
            offer, payout_methods=(), collected=None, pickup_method=None, payment_instrument=None
        )
        held = offers.get(alike)
        if held is not None:
            methods = set(held.payout_methods) | set(offer.payout_methods)
            offer = dataclasses.replace(
                held,
                payout_methods=tuple(m for m in PAYOUT_METHODS if m in methods),
                collected=max(filter(None, (held.collected, offer.collected)), default=None),
                pickup_method=_listed(held.pickup_method, offer.pickup_method),
                payment_instrument=_listed(held.payment_instrument, offer.payment_instrument),
            )
        offers[alike] = offer
    return tuple(offers.values())


def _listed(held: str | None, text: str | None) -> str | None:
    """The texts of rows made one offer, each once, in the rows' order, joined by "; "."""
    return "; ".join(dict.fromkeys(filter(None, (*(held or "").split("; "), text)))) or None


def _offer(row: _Row, scale: float) -> Offer:
    observation = row.observation
    first = _scaled(observation.cc1, scale)
    second = _scaled(observation.cc2, scale) if observation.cc2 else None
    flat, pct = first.fee, 0.0
    if second is not None and second.amount != first.amount:
        pct = 100 * (second.fee - first.fee) / (second.amount - first.amount)
        flat = first.fee - first.amount * pct / 100
    margins: tuple[tuple[float, float], ...] = ()
    if observation.transparent and second is not None and second.margin != first.margin:
        margins = ((first.amount, first.margin), (second.amount, second.margin))
    firm = firm_name(observation.firm)
    return Offer(
        provider_id=re.sub(r"[^a-z0-9]+", "-", firm.lower()).strip("-"),
        provider=firm,
        spread_pct=first.margin if observation.transparent else None,
        flat_fee=flat,
        fee_pct=pct,
        settlement=settlement(observation.speed),
        payout_methods=payout_methods(observation.pickup),
        svc_score=None,
        source=SURVEY,
        period=observation.period,
        collected=observation.collected,
        payout_currency=row.payout,
        disclosed=observation.transparent,
        firm_type=observation.firm_type,
        margins=margins,
        promotion=observation.promotion,
        payment_instrument=observation.payment,
        pickup_method=observation.pickup,
        speed=observation.speed,
    )


def _scaled(point: PricePoint, scale: float) -> PricePoint:
    return point if scale == 1.0 else dataclasses.replace(point, amount=point.amount * scale, fee=point.fee * scale)


def _with_implied(rates: Rates, book: _RateBook) -> Rates:
    """The rate tables with the implied rates, the consumer's the same as the interbank (the survey gives no other)."""
    added = {code: book.interbank[code] for code in book.implied}
    return Rates(rates.base, book.interbank, {**rates.consumer, **added}, {**rates.sources, **book.implied})
