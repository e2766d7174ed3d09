"""The pure pricing module: the formulas and ranking tie-breaks on hand-made offers."""

import pytest

from corridor.domain.model import Offer
from corridor.domain.pricing import rank_offers, settlement_minutes


def offer(name, spread=1.0, flat=0.0, pct=0.0, settlement="1 hour", svc=80):
    return Offer(name.lower(), name, spread, flat, pct, settlement, ("bank_deposit",), svc)


@pytest.mark.parametrize(
    "text, minutes",
    [("1 minute", 1), ("45 minutes", 45), ("1 hour", 60), ("20 hours", 1200), ("1 day", 1440), ("3 days", 4320)],
)
def test_settlement_minutes(text, minutes):
    assert settlement_minutes(text) == minutes


def test_true_cost_adds_flat_fee_share_fee_pct_and_spread():
    quote = rank_offers((offer("A", spread=0.42, flat=4.14, pct=0.5),), mid=None, amount=200.0)[0]
    assert quote.true_cost_pct == pytest.approx(2.07 + 0.5 + 0.42)


def test_provider_rate_takes_the_spread_off_mid():
    assert rank_offers((offer("A", spread=2.0),), mid=18.0, amount=200.0)[0].rate == pytest.approx(17.64)


def test_ranking_cost_then_service_score_then_name():
    offers = [
        offer("Zeta", spread=1.0, svc=90),
        offer("Alpha", spread=1.0, svc=90),
        offer("Beta", spread=1.0, svc=95),
        offer("Cheap", spread=0.5, svc=10),
    ]
    quotes = rank_offers(offers, mid=10.0, amount=200.0)
    assert [(q.rank, q.offer.provider) for q in quotes] == [(1, "Cheap"), (2, "Beta"), (3, "Alpha"), (4, "Zeta")]


def test_ranking_depends_on_the_amount():
    flat_fee, spread = offer("FlatFee", spread=0.4, flat=10.0), offer("Spread", spread=1.5)
    assert rank_offers([flat_fee, spread], 1.0, 200.0)[0].offer.provider == "Spread"
    assert rank_offers([flat_fee, spread], 1.0, 5000.0)[0].offer.provider == "FlatFee"


def test_name_breaks_ties_not_the_provider_id():
    offers = [
        Offer("a-first-id", "Zulu", 1.0, 0.0, 0.0, "1 hour", ("card",), 80),
        Offer("z-last-id", "Alpha", 1.0, 0.0, 0.0, "1 hour", ("card",), 80),
    ]
    assert [q.offer.provider for q in rank_offers(offers, 1.0, 200.0)] == ["Alpha", "Zulu"]


def test_corridor_settlement_is_the_fastest_and_the_best_ranked_among_equals():
    from corridor.domain.model import Corridor
    from corridor.domain.pricing import CorridorFigures

    offers = [
        offer("Slow", spread=0.1, settlement="2 days"),
        offer("Day", spread=0.5, settlement="1 day"),
        offer("Hours", spread=0.9, settlement="24 hours"),
        offer("Long", spread=0.2, settlement="36 hours"),
    ]
    corridor = Corridor(1, "USD", "MXN", "US", "MX", True, "Low", "", 90, 1.0, tuple(offers))
    figures = CorridorFigures(corridor, 1.0, 200.0, rank_offers(offers, 1.0, 200.0))
    assert figures.settlement == "1 day"
    assert CorridorFigures(corridor, 1.0, 200.0, rank_offers(offers[2:], 1.0, 200.0)).settlement == "24 hours"
