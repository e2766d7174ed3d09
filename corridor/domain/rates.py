"""Live interbank rates laid over the data file's: precedence, re-basing, provenance, consumer margins."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from corridor.domain.history import RateHistory
from corridor.domain.model import ECB, Rates, RateSource, with_base_source

# a feed's day is held back, unserved, when it moves any rate against the rates in force by more than MOVE_FACTOR
# either way, or more than half of them by more than BROAD_MOVE: no currency moves so in a day but in a crisis, which
# an operator confirms (docs/API.md#live-rates)
MOVE_FACTOR, BROAD_MOVE = 2.0, 1.25


@dataclass(frozen=True, slots=True)
class FeedRates:
    """One feed's rates: units of each currency per one `base`, each of its own day."""

    source: str
    base: str
    rates: Mapping[str, float]
    dates: Mapping[str, dt.date]

    @property
    def date(self) -> dt.date:
        return max(self.dates.values())


def live_rates(rates: Rates, feeds: Iterable[FeedRates]) -> Rates:
    """Each currency's rate from the first feed (in precedence order) that gives it, else the data file's."""
    interbank, sources = dict(rates.interbank), dict(rates.sources)
    for feed in reversed(list(feeds)):  # the lowest precedence first, so that the highest is applied last
        rebased = _rebased(feed, rates.base)
        for code in interbank:
            if code != rates.base and code in rebased:
                interbank[code] = rebased[code]
                days = [feed.dates.get(c) for c in (code, rates.base) if c != feed.base]
                sources[code] = RateSource(feed.source, min(day for day in days if day))
    # each consumer rate keeps its margin over the interbank rate as the data file states it
    consumer = {code: rates.consumer[code] * interbank[code] / rates.interbank[code] for code in interbank}
    return Rates(rates.base, interbank, consumer, with_base_source(sources, rates.base))


def _rebased(feed: FeedRates, base: str) -> dict[str, float]:
    """The feed's rates per one `base`; none without a rate of it to re-base through."""
    per_base = {**feed.rates, feed.base: 1.0}
    through = per_base.get(base)
    return {} if through is None else {code: rate / through for code, rate in per_base.items()}


def too_far(in_force: Rates, feed: FeedRates) -> tuple[str, list[str]] | None:
    """How the feed would move the rates in force too far to serve unconfirmed, and the currencies it moves; or None."""
    base, rebased = in_force.base, _rebased(feed, in_force.base)
    moves = {code: rebased[code] / old for code, old in in_force.interbank.items() if code != base and code in rebased}
    if not moves:
        return None
    factor = {code: max(move, 1 / move) for code, move in moves.items()}
    worst = max(sorted(moves), key=lambda code: float(f"{factor[code]:.3g}"))  # the first by code of equal moves
    wide = [code for code in moves if factor[code] > BROAD_MOVE]
    if factor[worst] > MOVE_FACTOR:
        old, new = in_force.interbank[worst], in_force.interbank[worst] * moves[worst]
        return f"moves the {base}→{worst} rate {moves[worst]:.3g}-fold ({old:.6g} → {new:.6g})", list(moves)
    if len(wide) * 2 > len(moves):
        return f"moves {len(wide)} of its {len(moves)} rates by more than {BROAD_MOVE - 1:.0%}", list(moves)
    return None


def recorded_ecb_days(rates: Rates, history: RateHistory) -> list[FeedRates]:
    """The history's exact rates for those the data file records as the ECB's of a day (docs/DATA.md, first section)."""
    recorded: dict[dt.date, set[str]] = {}
    for code, source in rates.sources.items():
        if source.source == ECB and code != rates.base:
            recorded.setdefault(source.date, set()).add(code)
    feeds = []
    for day, codes in sorted(recorded.items()):
        per_euro = history.on_day(day)
        if per_euro is None:
            continue
        per_euro[history.base] = 1.0
        if rates.base not in per_euro:
            continue
        # quoted in the data's base, so that only the recorded currencies move
        per_base = {code: per_euro[code] / per_euro[rates.base] for code in codes if code in per_euro}
        per_base = {code: rate for code, rate in per_base.items() if float(f"{rate:.6g}") == rates.interbank[code]}
        feeds.append(FeedRates(ECB, rates.base, per_base, {code: day for code in per_base}))
    return feeds
