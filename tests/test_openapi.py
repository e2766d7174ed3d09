"""The OpenAPI document: valid, complete, generated from the serving schemas; the docs page."""

import os
import shutil
import subprocess
import tempfile

import pytest
from openapi_schema_validator import OAS30Validator
from openapi_spec_validator import validate

from conftest import curl

SAMPLE_QUERIES = {
    "/api/corridors": [""],
    "/api/providers": ["?corridor=usd_mxn", "?corridor=usd_mxn&amount=1000&payout=cash_pickup&sort=speed"],
    "/api/midrate": ["?from=gbp&to=inr"],
    "/api/currencies": [""],
    "/api/poc/currencies": [""],
    "/api/poc/corridors": ["", "?from=USD&to=MXN"],
    "/api/poc/corridors/{corridor_id}": [""],
    "/api/poc/providers": ["", "?corridor=USD_MXN", "?corridor=USD_MXN&amount=0.5&sort=score"],
    "/api/poc/full": [""],
    "/api/poc/guide": [""],
    "/api/poc/health": [""],
}


@pytest.fixture
def document(client):
    response = client.get("/api/openapi.json")
    assert response.status_code == 200
    assert response.headers["Access-Control-Allow-Origin"] == "*"
    return response.get_json()


def resolve(node, document):
    """The schema with every local $ref replaced by its target."""
    if isinstance(node, dict):
        if "$ref" in node:
            return resolve(document["components"]["schemas"][node["$ref"].rsplit("/", 1)[1]], document)
        return {k: resolve(v, document) for k, v in node.items()}
    if isinstance(node, list):
        return [resolve(v, document) for v in node]
    return node


def test_document_is_valid_openapi_3(document):
    assert document["openapi"] == "3.0.3"
    validate(document)


def test_every_served_path_is_documented_and_nothing_else(app, document):
    served = {r.rule.replace("<corridor_id:corridor_id>", "{corridor_id}") for r in app.url_map.iter_rules()}
    served -= {"/api/openapi.json", "/api/docs", "/api/docs/assets/<name>", "/static/<path:filename>"}
    assert set(document["paths"]) == served == set(SAMPLE_QUERIES)


def test_bearer_security_on_group_a_only(document):
    assert document["components"]["securitySchemes"] == {"bearerAuth": {"type": "http", "scheme": "bearer"}}
    for path, item in document["paths"].items():
        operation = item["get"]
        group_a = not path.startswith("/api/poc/")
        assert ("security" in operation) is group_a, path
        assert ("401" in operation["responses"]) is group_a, path


def test_parameters_carry_patterns_and_examples(document):
    params = {p["name"]: p for p in document["paths"]["/api/midrate"]["get"]["parameters"]}
    assert params["from"]["required"] and params["from"]["schema"]["pattern"] == "^[A-Za-z]{3}$"
    assert params["from"]["schema"]["example"] == "USD"
    corridor = {p["name"]: p for p in document["paths"]["/api/providers"]["get"]["parameters"]}["corridor"]
    assert corridor["schema"]["pattern"] == "^[A-Za-z]{3}_[A-Za-z]{3}$" and corridor["required"]
    path_param = document["paths"]["/api/poc/corridors/{corridor_id}"]["get"]["parameters"][-1]
    assert path_param["in"] == "path" and path_param["schema"]["pattern"] == "^[1-9][0-9]*$"
    pair = document["paths"]["/api/poc/corridors"]["get"]["parameters"][0]
    assert pair["style"] == "form" and pair["explode"] is True
    assert set(pair["schema"]["properties"]) == {"from", "to"}


def test_every_error_is_problem_details(document):
    for path, item in document["paths"].items():
        responses = item["get"]["responses"]
        assert "200" in responses and "400" in responses, path
        for status, response in responses.items():
            if status.startswith(("4", "5")):
                assert response["content"] == {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}


def test_every_property_has_description_and_example(document):
    for name, schema in document["components"]["schemas"].items():
        assert schema["additionalProperties"] is False
        assert schema["required"] == list(schema["properties"]), name
        for prop, definition in schema["properties"].items():
            assert definition.get("description"), (name, prop)
            assert {"example", "allOf", "items"} & set(definition), (name, prop)


@pytest.mark.parametrize("path, query", [(p, q) for p, qs in SAMPLE_QUERIES.items() for q in qs])
def test_served_responses_match_the_document(client, auth, document, path, query):
    url = path.replace("{corridor_id}", "1") + query
    response = client.get(url, headers=auth)
    documented = document["paths"][path]["get"]["responses"]["200"]
    assert response.status_code == 200
    schema = resolve(documented["content"]["application/json"]["schema"], document)
    OAS30Validator(schema).validate(response.get_json())
    assert response.headers["Cache-Control"] in documented["headers"]["Cache-Control"]["schema"]["enum"]
    problem = client.get(url + ("&" if "?" in url else "?") + "bogus=1", headers=auth)
    assert problem.status_code == 400
    OAS30Validator(resolve({"$ref": "#/components/schemas/Problem"}, document)).validate(problem.get_json())


def test_docs_page_is_served_offline(client):
    page = client.get("/api/docs")
    assert page.status_code == 200 and page.mimetype == "text/html"
    assert "default-src 'self'" in page.headers["Content-Security-Policy"]
    html = page.get_data(as_text=True)
    assert "http://" not in html and "https://" not in html
    for name, mimetype in [("swagger-ui.css", "text/css"), ("swagger-ui-bundle.js", "text/javascript"),
                           ("docs.js", "text/javascript")]:
        asset = client.get(f"/api/docs/assets/{name}")
        assert asset.status_code == 200 and asset.mimetype == mimetype
        assert f"/api/docs/assets/{name}" in html
    missing = client.get("/api/docs/assets/index.html")
    assert missing.status_code == 404 and missing.mimetype == "application/problem+json"


CHROMIUM = shutil.which("chromium")


@pytest.mark.skipif(not CHROMIUM and not os.environ.get("CI"), reason="Debian's chromium is not installed (CI installs it)")
def test_docs_render_every_operation_in_headless_chromium(server, document):
    base, _, _ = server
    assert "swagger-ui" in curl(f"{base}/api/docs")
    with tempfile.TemporaryDirectory() as profile:
        dom = subprocess.run(
            [CHROMIUM or "chromium", "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             f"--user-data-dir={profile}", "--virtual-time-budget=15000", "--dump-dom", f"{base}/api/docs"],
            capture_output=True, text=True, timeout=90,
        ).stdout
    for path in document["paths"]:
        assert f'class="opblock-summary-path" data-path="{path}"' in dom, path
    assert "Corridor API" in dom
