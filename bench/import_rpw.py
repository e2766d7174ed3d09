"""`prices import-rpw` on a workbook the size of a full World Bank release: its time and peak memory, against a floor.

Builds (once; reused while its size and seed are the same) a workbook in the published layout, the two dataset
sheets of 42 and 41 columns, with N rows spread over the periods since 2011 and some 370 country pairs, then runs the
import in a process of its own on an empty database and reports its wall time and peak memory (the process's
maximum resident set), beside the floor: openpyxl reading every row of the same workbook and nothing else. A second
import of the same file is timed too (it changes nothing). Targets: the import under 3 minutes, under 400 MB.

Usage: python -m bench.import_rpw [--rows 200000] [--database URL] [--workbook PATH]
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from survey_rows import NEW_SHEET, OLD_SHEET  # noqa: E402  (the published layout, as the tests write it)

TARGET_SECONDS, TARGET_MB = 180, 400
FLOOR = """
import sys
from openpyxl import load_workbook
book = load_workbook(sys.argv[1], read_only=True, data_only=True)
n = sum(1 for name in book.sheetnames for _ in book[name].iter_rows(values_only=True))
print(n)
"""
# sending countries and their currencies, receiving countries: real codes, ~370 pairs
SENDERS = {
    "USA": "USD",
    "GBR": "GBP",
    "FRA": "EUR",
    "DEU": "EUR",
    "ITA": "EUR",
    "ESP": "EUR",
    "CAN": "CAD",
    "AUS": "AUD",
    "JPN": "JPY",
    "SAU": "SAR",
    "ARE": "AED",
    "ZAF": "ZAR",
    "KEN": "KES",
    "TZA": "TZS",
    "RUS": "RUB",
    "SGP": "SGD",
    "KOR": "KRW",
    "NZL": "NZD",
    "CHE": "CHF",
    "BRA": "BRL",
    "QAT": "QAR",
    "KWT": "KWD",
    "SWE": "SEK",
    "NOR": "NOK",
}
RECEIVERS = (
    "MEX",
    "IND",
    "PHL",
    "CHN",
    "VNM",
    "NGA",
    "PAK",
    "BGD",
    "EGY",
    "MAR",
    "SEN",
    "GHA",
    "KEN",
    "UGA",
    "TZA",
    "RWA",
    "ETH",
    "COL",
    "GTM",
    "HND",
    "SLV",
    "DOM",
    "JAM",
    "HTI",
    "NPL",
    "LKA",
    "IDN",
    "THA",
    "UKR",
    "POL",
    "ROU",
    "TUR",
    "LBN",
    "JOR",
    "ZWE",
    "MOZ",
)
FIRMS = (
    "Western Union",
    "MoneyGram",
    "Ria",
    "WorldRemit",
    "Remitly",
    "Wise",
    "Ecobank",
    "Standard Bank",
    "Post Office",
    "M-Pesa",
    "Xoom",
    "Small World",
    "Dahabshiil",
    "Intermex",
    "Barclays",
    "HSBC",
)
SPEEDS = ("Less than one hour", "Same day", "Next day", "2 days", "3-5 days", "6 days or more")
PICKUPS = ("Cash", "Bank account", "Mobile wallet", "Own/partner Bank account", "Home delivery")


def build(path: Path, rows: int, seed: int) -> None:
    """The workbook: the notes sheets, then the older sheet (periods to 2016 Q1) and the newer one."""
    from openpyxl import Workbook

    rng = random.Random(seed)
    pairs = [(s, d) for s in SENDERS for d in RECEIVERS if s != d][:370]
    periods = [f"{y}_{q}Q" for y in range(2011, 2026) for q in range(1, 5)][:58]
    older = [p for p in periods if p <= "2016_1Q"]
    book = Workbook(write_only=True)
    for name in ("Terms of Use", "Methodology", "Legend", "Countries"):
        book.create_sheet(name).append([f"{name} of the survey."])
    old_share = len(older) / len(periods)
    for name, columns, count, chosen in (
        ("Dataset (up to Q1 2016)", OLD_SHEET, int(rows * old_share), older),
        ("Dataset (from Q2 2016)", NEW_SHEET, rows - int(rows * old_share), [p for p in periods if p not in older]),
    ):
        sheet = book.create_sheet(name)
        sheet.append(list(columns))
        index = {c: i for i, c in enumerate(columns)}
        for n in range(count):
            source, destination = pairs[n % len(pairs)]
            period = chosen[(n // len(pairs)) % len(chosen)]
            amount = 200 * rng.choice((1, 100, 129, 1450, 7.5, 0.8))
            margin, fee = round(rng.uniform(-1, 8), 2), round(amount * rng.uniform(0, 0.1), 2)
            row = [None] * len(columns)
            values = {
                "id": n + 1,
                "period": period,
                "source_code": source,
                "destination_code": destination,
                "firm": rng.choice(FIRMS),
                "firm_type": "Money Transfer Operator",
                "speed actual": rng.choice(SPEEDS),
                "cc1 lcu amount": amount,
                "cc1 denomination amount": 200,
                "cc1 lcu code": SENDERS[source],
                "cc1 lcu fee": fee,
                "cc1 lcu fx rate": 1.0,
                "cc1 fx margin": margin,
                "cc1 total cost %": round(100 * fee / amount + margin, 2),
                "cc2 lcu amount": amount * 2.5,
                "cc2 denomination amount": 500,
                "cc2 lcu code": SENDERS[source],
                "cc2 lcu fee": fee * 1.5,
                "cc2 lcu fx rate": 1.0,
                "cc2 fx margin": margin,
                "cc2 total cost %": round(100 * fee * 1.5 / (amount * 2.5) + margin, 2),
                "inter lcu bank fx": rng.uniform(0.001, 300),
                "transparent": rng.choice(("Yes", "yes", "no")),
                "pickup method": rng.choice(PICKUPS),
                "pick-up method": rng.choice(PICKUPS),
                "date": f"{period[:4]}-0{3 * int(period[5]) - 1}-1{rng.randint(0, 9)}",
                "corridor": source + destination,
                # the text the published sheets carry beside the figures: what makes a release ~48 MB
                "source_name": f"Country {source}",
                "source_region": "Sub-Saharan Africa",
                "source_income": "Lower middle income",
                "source_lending": "IDA",
                "source_G8G20": "No",
                "destination_name": f"Country {destination}",
                "destination_region": "East Asia & Pacific",
                "destination_income": "Upper middle income",
                "destination_lending": "IBRD",
                "destination_G8G20": "No",
                "payment instrument": "Cash",
                "access point": "Agent",
                "product": "Cash to cash",
                "sending location": "Capital city",
                "Standard Note": "Fee includes tax.",
                "note1": "Fee includes tax.",
                "note2": "Promotional rate during the survey period.",
                "receiving network coverage": "Nationwide",
                "coverage": "Nationwide",
                "pickup location": "Agent outlet",
            }
            for column, value in values.items():
                if column in index:
                    row[index[column]] = value
            sheet.append(row)
    book.save(path)


def run(command: list[str], env: dict) -> tuple[float, float, str]:
    """(seconds, peak MB of the process: its maximum resident set, from wait4, its output)."""
    with tempfile.TemporaryFile("w+") as out:
        start = time.perf_counter()
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, text=True)
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        output = out.read()
    if process.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{output}")
    return seconds, usage.ru_maxrss / 1024, output  # Linux gives KiB


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=200_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database", help="DATABASE_URL to import into (default: a new SQLite file)")
    parser.add_argument("--workbook", type=Path, help="where the workbook is kept (default: the temporary folder)")
    args = parser.parse_args()
    workbook = args.workbook or Path(tempfile.gettempdir()) / f"corridor-rpw-{args.rows}-{args.seed}.xlsx"
    if not workbook.exists():
        start = time.perf_counter()
        build(workbook.with_suffix(".partial.xlsx"), args.rows, args.seed)
        os.replace(workbook.with_suffix(".partial.xlsx"), workbook)
        print(
            f"built {workbook}: {args.rows:,} rows, {workbook.stat().st_size / 2**20:.1f} MB "
            f"in {time.perf_counter() - start:.0f} s"
        )
    folder = tempfile.mkdtemp(prefix="corridor-import-")
    database = args.database or f"sqlite:///{folder}/import.sqlite3"
    env = {**os.environ, "DATABASE_URL": database, "SECRET_KEY": "bench-import-" + "0" * 32}
    flask = [sys.executable, "-m", "flask", "--app", "app"]
    run([*flask, "db", "upgrade"], env)
    floor_s, floor_mb, _ = run([sys.executable, "-c", FLOOR, str(workbook)], env)
    import_s, import_mb, output = run([*flask, "prices", "import-rpw", str(workbook)], env)
    again_s, _, again = run([*flask, "prices", "import-rpw", str(workbook)], env)
    print(output.rstrip().splitlines()[0])
    print(again.rstrip().splitlines()[0][:160])
    print()
    print("| run | seconds | peak MB | target |")
    print("|---|---|---|---|")
    print(f"| floor: openpyxl reads every row | {floor_s:.1f} | {floor_mb:.0f} | |")
    met = "met" if import_s < TARGET_SECONDS and import_mb < TARGET_MB else "MISSED"
    print(
        f"| `prices import-rpw`, {args.rows:,} rows | {import_s:.1f} | {import_mb:.0f} | "
        f"< {TARGET_SECONDS} s, < {TARGET_MB} MB: {met} |"
    )
    print(f"| the same file again (nothing changes) | {again_s:.1f} | | |")
    print(f"\nimport / floor: {import_s / floor_s:.2f}× the time")


if __name__ == "__main__":
    main()
