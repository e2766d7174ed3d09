"""Survey files for tests: the shipped real rows, and rows of a test's own written as the World Bank publishes them (the
workbook's two dataset sheets, built with openpyxl) or as a CSV."""

import csv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHIPPED_RPW = ROOT / "data" / "rpw-east-africa-2025.csv"
# every file `make run` imports, in its order, with the command that imports it
SHIPPED_FILES = (
    (("prices", "import-rpw"), SHIPPED_RPW),
    (("prices", "import-rpw"), ROOT / "data" / "rpw-2025q3-21-corridors.csv"),
    (("prices", "import-published"), ROOT / "data" / "wb-rpw-corridor-average-cost-2011q1-2020q3.csv"),
    (("flows", "import"), ROOT / "data" / "knomad-bilateral-remittance-matrix-2021.xlsx"),
)

_POINT = ("lcu amount", "denomination amount", "lcu code", "lcu fee", "lcu fx rate", "fx margin", "total cost %")
# "Dataset (from Q2 2016)", 42 named columns in the published order
NEW_SHEET = (
    "id",
    "period",
    "source_code",
    "source_name",
    "source_region",
    "source_income",
    "source_lending",
    "source_G8G20",
    "destination_code",
    "destination_name",
    "destination_region",
    "destination_income",
    "destination_lending",
    "destination_G8G20",
    "firm",
    "firm_type",
    "payment instrument",
    "access point",
    "speed actual",
    *(f"cc1 {c}" for c in _POINT),
    *(f"cc2 {c}" for c in _POINT),
    "inter lcu bank fx",
    "transparent",
    "Standard Note",
    "note2",
    "receiving network coverage",
    "pickup location",
    "pickup method",
    "date",
    "corridor",
)
# "Dataset (up to Q1 2016)", 41 columns: the same but for these
_OLD_NAMES = {
    "payment instrument": "product",
    "access point": "sending location",
    "receiving network coverage": "coverage",
    "Standard Note": "note1",
    "pickup method": "pick-up method",
}
OLD_SHEET = tuple(_OLD_NAMES.get(c, c) for c in NEW_SHEET if c != "pickup location")
assert len(NEW_SHEET) == 42 and len(OLD_SHEET) == 41


def rpw_row(**given):
    """A surveyed row by the newer sheet's column names (`cc1 lcu fee` as `cc1_lcu_fee`): a Kenya→Tanzania cash
    service of 2025 Q3 paying out shillings, unless `given` says otherwise."""
    row = {
        "period": "2025_3Q",
        "source_code": "KEN",
        "source_name": "Kenya",
        "destination_code": "TZA",
        "destination_name": "Tanzania",
        "firm": "Test Remit",
        "firm_type": "Money Transfer Operator",
        "payment instrument": "Cash",
        "access point": "Agent",
        "speed actual": "Less than one hour",
        "cc1 lcu amount": 18000,
        "cc1 denomination amount": 200,
        "cc1 lcu code": "KES",
        "cc1 lcu fee": 180,
        "cc1 lcu fx rate": 19.2,
        "cc1 fx margin": 2.0,
        "cc1 total cost %": 3.0,
        "cc2 lcu amount": 45000,
        "cc2 denomination amount": 500,
        "cc2 lcu code": "KES",
        "cc2 lcu fee": 360,
        "cc2 lcu fx rate": 19.4,
        "cc2 fx margin": 1.0,
        "cc2 total cost %": 1.8,
        "inter lcu bank fx": 19.6,
        "transparent": "Yes",
        "pickup method": "Cash",
        "date": "2025-08-19",
        "corridor": "KENTZA",
    }
    for name, value in given.items():
        row[name.replace("_", " ") if name.replace("_", " ") in _ALL else name] = value
    return row


_ALL = set(NEW_SHEET) | set(OLD_SHEET)


def write_csv(path, rows, columns=NEW_SHEET):
    """`rows` as a CSV under `columns` (a row's value for a column it lacks: empty)."""
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(columns)
        for row in rows:
            writer.writerow([row.get(c, "") for c in columns])
    return path


def write_workbook(path, new_rows=(), old_rows=()):
    """A workbook in the published layout: the notes sheets, then the two dataset sheets (older rows under the older
    sheet's columns, a row's `pickup method` under `pick-up method`)."""
    from openpyxl import Workbook

    book = Workbook(write_only=True)
    for name in ("Terms of Use", "Methodology", "Legend", "Countries"):
        book.create_sheet(name).append([f"{name} of the survey."])
    for name, columns, rows, names in (
        ("Dataset (up to Q1 2016)", OLD_SHEET, old_rows, _OLD_NAMES),
        ("Dataset (from Q2 2016)", NEW_SHEET, new_rows, {}),
    ):
        sheet = book.create_sheet(name)
        sheet.append(list(columns))
        for row in rows:
            named = {names.get(k, k): v for k, v in row.items()}
            sheet.append([named.get(c) for c in columns])
    book.save(path)
    return Path(path)
