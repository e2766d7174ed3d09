"""The Group B guide: every field name of every payload, generated from the schemas."""

from conftest import GROUP_B_DATA_URLS, ok_json

MAPS = {"byFirmType", "byRegion"}  # objects whose keys are data (kinds of firm, regions), not field names


def _keys(value, found):
    if isinstance(value, dict):
        for name, inner in value.items():
            found.setdefault(name, set()).add(type(inner).__name__)
            # nor their examples in the guide's own entries
            if name not in MAPS and not (name == "example" and value.get("name") in MAPS):
                _keys(inner, found)
    elif isinstance(value, list):
        for inner in value:
            _keys(inner, found)
    return found


def test_guide_covers_every_key_of_every_payload_and_nothing_else(client, surveyed_app, auth):
    guide = ok_json(client, "/api/poc/guide")
    assert list(guide) == ["ok", "count", "fields"]
    assert guide["count"] == len(guide["fields"])
    payloads = [
        client.get(url).get_json()
        for url in GROUP_B_DATA_URLS
        + [
            "/api/poc/health",
            "/api/poc/corridors/0",
            "/api/poc/history?from=USD&to=MXN&interval=month",
            "/api/poc/benchmark",
        ]
    ]
    surveyed = surveyed_app.test_client()
    payloads += [
        surveyed.get(url, headers=auth).get_json()
        for url in ("/api/poc/costs?corridor=KEN-TZA", "/api/poc/costs/global", "/api/poc/benchmark")
    ]
    seen = {}
    for payload in payloads:
        _keys(payload, seen)
    json_types = {
        "str": "string",
        "int": "integer",
        "float": "number",
        "bool": "boolean",
        "list": "array",
        "dict": "object",
    }
    documented = {}
    for entry in guide["fields"]:
        assert list(entry) == ["name", "object", "type", "description", "example"]
        assert entry["description"].endswith(".")
        documented.setdefault(entry["name"], set()).add(entry["type"])
    assert set(seen) == set(documented)
    # only an example may be of any type: every date and computed field says its own
    assert [(e["object"], e["name"]) for e in guide["fields"] if e["type"] == "any"] == [("guide field", "example")]
    for name, types in seen.items():
        if name != "example":
            # null is said in the description of each field that may be null
            assert {json_types[t] for t in types if t != "NoneType"} <= documented[name], name
    assert len([e for e in guide["fields"] if e["name"] == "corridor"]) >= 3


def test_each_entry_names_the_object_its_field_belongs_to(client):
    entries = ok_json(client, "/api/poc/guide")["fields"]
    pairs = [(entry["object"], entry["name"]) for entry in entries]
    assert len(pairs) == len(set(pairs)), "one entry per object and name"
    assert {e["object"]: e["description"] for e in entries if e["name"] == "avgCost"} == {
        "corridor": "Mean true cost over the corridor's providers that disclose their margin; null if none does.",
        "benchmark": next(e["description"] for e in entries if (e["object"], e["name"]) == ("benchmark", "avgCost")),
        "benchmark.cheapest and benchmark.costliest": "Its mean true cost at the reference amount.",
    }
    assert {e["object"] for e in entries if e["name"] == "code"} == {"currency", "problem"}
    assert {e["object"] for e in entries if e["name"] == "ok"} >= {"every answer", "problem"}
