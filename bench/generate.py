"""A large data file for the scale benchmark: N active corridors of 12 offers each, over the shipped
currencies and providers (plus one provider, so that 12 offers fit), the shipped corridors' pairs
first, reproducible from a seed.

Usage: python -m bench.generate [--corridors 2000] [--seed 1] OUT
"""

from __future__ import annotations

import argparse
import datetime as dt
import itertools
import json
import random
from pathlib import Path

from corridor.domain.countries import country_codes, country_currency, country_name
from corridor.domain.model import COMPLIANCE_LEVELS, PAYOUT_METHODS

ROOT = Path(__file__).resolve().parent.parent
OFFERS = 12
EXTRA_PROVIDER = {"id": "atlas-remit", "name": "Atlas Remit"}
SETTLEMENTS = ["5 minutes", "10 minutes", "30 minutes", "1 hour", "4 hours", "1 day", "2 days", "3 days"]


def generate(corridors: int, seed: int = 1) -> dict:
    """The shipped data with `corridors` generated active corridors in place of its own."""
    data = json.loads((ROOT / "seed_data.json").read_text(encoding="utf-8"))
    rng = random.Random(seed)
    providers = data["providers"] + [EXTRA_PROVIDER]
    assert len(providers) >= OFFERS
    interbank = data["rates"]["interbank"]
    shipped = [(c["from_currency"], c["to_currency"]) for c in data["corridors"]]  # first: USD→MXN is id 1
    others = sorted(set(itertools.permutations(sorted(interbank), 2)) - set(shipped))
    rng.shuffle(others)
    pairs = shipped + others
    if corridors > len(pairs):
        raise SystemExit(f"at most {len(pairs)} corridors over {len(interbank)} currencies")
    data["providers"] = providers
    homes = _homes(data, interbank)
    data["corridors"] = [
        _corridor(number, pair, homes, providers, interbank, rng) for number, pair in enumerate(pairs[:corridors], 1)
    ]
    return data


def _homes(data: dict, currencies: dict) -> dict[str, str]:
    """A country of each currency, each currency its own (so that distinct currency pairs are distinct country pairs):
    the shipped data's where it has one, else the first by code that uses it."""
    homes: dict[str, str] = {}
    for corridor in data["corridors"]:
        for currency, side in ((corridor["from_currency"], "source"), (corridor["to_currency"], "destination")):
            code = corridor.get(f"{side}_country") or next(
                c for c in country_codes() if country_name(c) == corridor[side]
            )
            homes.setdefault(currency, code)
    today = dt.date.today()
    for country in country_codes():
        currency = country_currency(country, today)
        if currency in currencies and currency not in homes and country not in homes.values():
            homes[currency] = country
    return homes


def _corridor(
    number: int,
    pair: tuple[str, str],
    homes: dict[str, str],
    providers: list[dict],
    interbank: dict,
    rng: random.Random,
) -> dict:
    source, destination = pair
    per_usd = interbank[source] / interbank["USD"]  # fees in the source currency, USD-like in size
    return {
        "id": number,
        "from_currency": source,
        "to_currency": destination,
        "source": country_name(homes[source]),
        "destination": country_name(homes[destination]),
        "source_country": homes[source],
        "destination_country": homes[destination],
        "active": True,
        "compliance": rng.choice(COMPLIANCE_LEVELS),
        "compliance_notes": "Standard KYC with government-issued ID.",
        "score": rng.randint(40, 95),
        "annual_flow_bn": round(rng.uniform(0.1, 12.0), 1),
        "offers": [
            {
                "provider": provider["id"],
                "spread_pct": round(rng.uniform(0.2, 4.5), 2),
                "flat_fee": round(rng.choice([0, 0.99, 1.99, 2.99, 4.99, 7.99]) * per_usd, 2),
                "fee_pct": rng.choice([0.0, 0.0, 0.5, 1.0]),
                "settlement": rng.choice(SETTLEMENTS),
                "payout_methods": rng.sample(PAYOUT_METHODS, rng.randint(1, 3)),
                "svc_score": rng.randint(50, 98),
            }
            for provider in rng.sample(providers, OFFERS)
        ],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--corridors", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    args.out.write_text(json.dumps(generate(args.corridors, args.seed), ensure_ascii=False), encoding="utf-8")
    print(f"{args.out}: {args.corridors} corridors, {args.out.stat().st_size:,} bytes")


if __name__ == "__main__":
    main()
