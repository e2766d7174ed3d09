"""Every example of a served figure in README.md and docs/API.md is what the service serves on the shipped data and
everything `make run` imports (the feeds off): a figure that moves fails here rather than going stale."""

import csv
import io
import json
import re

import pytest
from conftest import RAW_KEY
from harness import ROOT

AUTH = {"Authorization": f"Bearer {RAW_KEY}"}
DOCUMENTS = {name: (ROOT / name).read_text(encoding="utf-8") for name in ("README.md", "docs/API.md")}


def json_blocks(document):
    """The ```json blocks of a document, as written."""
    return re.findall(r"```json\n(.*?)\n```", DOCUMENTS[document], re.S)


def example(document, anchor):
    """The one ```json block of `document` that holds `anchor`, parsed: a list cut with `, …]` is read as its first
    element, a member written alone (`"survey":{…}`) as an object of it."""
    [block] = [block for block in json_blocks(document) if anchor in block]
    block = block.strip()
    if block.startswith("[") and block.endswith(", …]"):
        block = block[1 : -len(", …]")]
    if block.startswith('"'):
        block = "{" + block + "}"
    return json.loads(block)


def first(body):
    return body[0]


def provider(name):
    def pick(body):
        entries = body["providers"] if isinstance(body, dict) else body
        return next(entry for entry in entries if entry["provider"] == name)

    return pick


def provider_pair(pair):
    return lambda body: next(entry for entry in body if entry["corridor"] == pair)


def without(*names):
    return lambda body: {key: value for key, value in body.items() if key not in names}


def member(name):
    return lambda body: {name: body[name]}


def whole(body):
    return body


# (document, a text only its example holds, the request that serves it, what of the answer it shows)
EXAMPLES = [
    ("README.md", '"provider":"Walmart2World"', "/api/providers?corridor=USD_MXN", first),
    ("README.md", '"code":"unknown_corridor"', "/api/providers?corridor=USD_XYZ", whole),
    ("docs/API.md", '"best_payout_currency"', "/api/corridors", first),
    ("docs/API.md", '"provider":"Walmart2World"', "/api/providers?corridor=USD_MXN", first),
    (
        "docs/API.md",
        '"provider":"EcoBank Rapid Transfer"',
        "/api/providers?corridor=KEN-TZA&amount=18000",
        provider("EcoBank Rapid Transfer"),
    ),
    ("docs/API.md", '"ref_rate_a"', "/api/midrate?from=GBP&to=INR", whole),
    ("docs/API.md", '"annualFlowBn":"$52.6B"', "/api/poc/corridors/1", whole),
    (
        "docs/API.md",
        '"provider":"Western Union"',
        "/api/poc/providers?corridor=KEN-TZA&amount=18000",
        provider("Western Union"),
    ),
    ("docs/API.md", '"corridorCount"', "/api/poc/benchmark", without("survey")),
    ("docs/API.md", '"survey":{', "/api/benchmark", member("survey")),
    ("docs/API.md", '"corridor":"KEN-TZA"', "/api/costs?corridor=KEN-TZA&start=2020Q3", whole),
    ("docs/API.md", '{"source":"World Bank RPW","periods"', "/api/costs/global?start=2020Q3", whole),
    ("docs/API.md", '"corridor":"TZA-UGA"', "/api/poc/costs?corridor=TZA-UGA&start=2020Q3", whole),
    (
        "docs/API.md",
        '"corridor":"USA-MEX","source_country":"USA"',
        "/api/costs/corridors?from_country=USA",
        provider_pair("USA-MEX"),
    ),
    ("docs/API.md", '"code":"unknown_corridor"', "/api/providers?corridor=USD_XYZ", whole),
]


@pytest.fixture(scope="module")
def client(shipped_app):
    return shipped_app.test_client()


def served(client, url):
    response = client.get(url, headers=AUTH)
    assert response.status_code in (200, 404), response.get_data(as_text=True)
    return response


@pytest.mark.parametrize(
    ("document", "anchor", "url", "shown"), EXAMPLES, ids=[f"{document}:{url}" for document, _, url, _ in EXAMPLES]
)
def test_each_json_example_is_what_is_served(client, document, anchor, url, shown):
    assert example(document, anchor) == shown(served(client, url).get_json())


@pytest.mark.parametrize("document", sorted(DOCUMENTS))
def test_every_json_example_is_checked(document):
    """A new example must be listed in EXAMPLES, or it could go stale unseen."""
    anchors = [anchor for name, anchor, _, _ in EXAMPLES if name == document]
    assert [block[:80] for block in json_blocks(document) if not any(anchor in block for anchor in anchors)] == []


def test_the_csv_example_is_what_is_served(client):
    [block] = re.findall(r"```\n(period,published_average_total_cost_pct,.*?)\n```", DOCUMENTS["docs/API.md"], re.S)
    text = served(client, "/api/costs.csv?corridor=KEN-TZA&start=2020Q3").get_data(as_text=True)
    assert list(csv.reader(io.StringIO(block))) == list(csv.reader(io.StringIO(text)))


def test_the_currency_example_is_what_is_served(client):
    written = json.loads(re.search(r'`(\{"code":"MXN".*?\})`', DOCUMENTS["docs/API.md"]).group(1))
    assert written == next(c for c in served(client, "/api/currencies").get_json() if c["code"] == "MXN")


def test_the_history_example_starts_as_served(client):
    written = re.search(r'`(\{"from":"USD","to":"MXN","source":"ECB".*?),"points":', DOCUMENTS["docs/API.md"]).group(1)
    body = served(client, "/api/history?from=USD&to=MXN").get_json()
    assert json.loads(written + "}") == without("points")(body)
    assert body["points"][0]["date"] == "2025-10-30"


@pytest.mark.parametrize(
    ("document", "sentence", "url", "figures"),
    [
        (
            "docs/API.md",
            "(Tanzania → Uganda: {} surveyed in 2025 Q3, {} at today's rates)",
            "/api/poc/costs?corridor=TZA-UGA",
            lambda body: [body["periods"][-1]["averageTotalCostPct"]],
        ),
        (
            "docs/API.md",
            "(Tanzania → Uganda: {} surveyed in 2025 Q3, {} at today's rates)",
            "/api/poc/corridors?from=TZS&to=UGX",
            lambda body: [body["corridor"]["avgCost"]],
        ),
        (
            "docs/API.md",
            "those 29 corridors' ({} in 2025 Q3",
            "/api/poc/costs/global",
            lambda body: [body["periods"][-1]["averageTotalCostPct"]],
        ),
    ],
)
def test_figures_written_in_sentences_are_served(client, document, sentence, url, figures):
    pattern = re.escape(sentence).replace(r"\{\}", r"([-\d.]+ %)")
    written = [figure.replace(" ", "") for figure in re.search(pattern, DOCUMENTS[document]).groups()]
    assert set(figures(served(client, url).get_json())) <= set(written)
