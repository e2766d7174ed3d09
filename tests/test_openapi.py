"""The OpenAPI document: valid, complete, generated from the serving schemas; the docs page."""

import pytest
from openapi_schema_validator import OAS30Validator
from openapi_spec_validator import validate

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
    "/api/history": [
        "?from=usd&to=mxn",
        "?from=GBP&to=INR&start=2024-01-01&end=2024-12-31&interval=week",
        "?from=USD&to=JPY&date=2025-12-25",
    ],
    "/api/poc/history": ["?from=USD&to=MXN&interval=month"],
    "/api/history.csv": ["?from=usd&to=mxn&interval=week"],
    "/api/poc/history.csv": ["?from=USD&to=JPY&date=2025-12-25"],
}
# on the shipped survey rows (the benchmark's `survey` is null without them, which a validator of OpenAPI 3.0 cannot
# read from `allOf: [$ref], nullable: true`)
SURVEY_QUERIES = {
    "/api/benchmark": [""],
    "/api/poc/benchmark": [""],
    "/api/costs": ["?corridor=ken-tza", "?corridor=KES_TZS&start=2025q3&format=csv"],
    "/api/costs.csv": ["?corridor=TZA-UGA&end=2025Q1"],
    "/api/costs/global": ["", "?start=2025Q3"],
    "/api/poc/costs": ["?corridor=TZA-UGA"],
    "/api/poc/costs.csv": ["?corridor=TZA-UGA"],
    "/api/poc/costs/global": [""],
    "/api/costs/corridors": ["", "?from_country=ken&limit=2", "?to_country=TZA&format=csv"],
    "/api/poc/costs/corridors": ["?to_country=TZA", "?limit=3"],
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
    served -= {
        "/api/openapi.json",
        "/api/docs",
        "/api/docs/assets/<name>",
        "/static/<path:filename>",
        "/",
        "/api",
        "/assets/<name>",
    }
    # pages for people, not the API: the account pages and the reference
    served = {path for path in served if not path.startswith(("/account", "/api/docs/"))}
    assert set(document["paths"]) == served == set(SAMPLE_QUERIES) | set(SURVEY_QUERIES)


def test_bearer_security_on_group_a_only(document):
    assert document["components"]["securitySchemes"] == {
        "bearerAuth": {
            "type": "http",
            "scheme": "bearer",
            "description": "A key you make at /account (sign up, then API keys: `cor_` and 43 characters), or one the "
            "operator gave you.",
        }
    }
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
    assert corridor["schema"]["pattern"] == "^[A-Za-z]{3}[-_][A-Za-z]{3}$" and corridor["required"]
    [path_param] = document["paths"]["/api/poc/corridors/{corridor_id}"]["parameters"]
    assert path_param["in"] == "path" and path_param["required"] and path_param["schema"]["pattern"] == "^[1-9][0-9]*$"
    assert path_param["description"] == "Corridor id: digits, no leading zero."


@pytest.mark.parametrize(
    "path, names, rule",
    [
        ("/api/poc/corridors", ["from", "to"], "Give `from` and `to` together, or none of them (400 otherwise)."),
        ("/api/poc/providers", ["amount", "payout", "sort"], "Needs `corridor` (400 otherwise)."),
    ],
)
def test_group_b_filters_are_separate_optional_parameters_with_their_rule(document, path, names, rule):
    params = {p["name"]: p for p in document["paths"][path]["get"]["parameters"] if p["in"] == "query"}
    assert "query" not in params
    for name in names:
        assert params[name]["required"] is False and params[name]["description"].endswith(rule), name
    if path == "/api/poc/providers":
        assert params["corridor"]["required"] is False and "Needs" not in params["corridor"]["description"]


@pytest.mark.parametrize(
    "schema, field, json_type",
    [("Problem", "ok", "boolean"), ("Problem", "type", "string"), ("CorridorResponse", "ok", "boolean")],
)
def test_constant_fields_have_a_json_type(document, schema, field, json_type):
    assert document["components"]["schemas"][schema]["properties"][field]["type"] == json_type


def test_servers_and_the_cors_decision_are_documented(document):
    assert document["servers"] == [{"url": "/", "description": "The server that serves this document."}]
    assert "sends no CORS headers" in document["info"]["description"]


def test_health_s_uptime_is_documented_as_the_instance_s(document):
    uptime = document["components"]["schemas"]["HealthResponse"]["properties"]["uptimeSeconds"]
    # gunicorn's master builds the app once (preload_app) and forks every worker from it
    assert uptime["description"] == (
        "Seconds since the instance started (under gunicorn, its master: the same in every worker, and kept across a "
        "HUP)."
    )


@pytest.mark.parametrize("path", ["/api/corridors", "/api/poc/corridors", "/api/poc/providers"])
def test_conditional_request_headers_and_validators_are_declared(document, path):
    operation = document["paths"][path]["get"]
    headers = {p["name"] for p in operation["parameters"] if p["in"] == "header"}
    assert headers == {"X-Request-ID", "If-None-Match", "If-Modified-Since", "If-Match"}
    assert {"ETag", "Last-Modified"} <= set(operation["responses"]["200"]["headers"])
    assert "ETag" in operation["responses"]["304"]["headers"]
    cors = {"Access-Control-Allow-Origin", "Access-Control-Expose-Headers"}
    for status, response in operation["responses"].items():
        assert (cors <= set(response.get("headers", {}))) is path.startswith("/api/poc/"), (path, status)


def test_every_limited_operation_documents_its_429_and_budget_headers(document):
    budget = {"RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"}
    for path, item in document["paths"].items():
        responses = item["get"]["responses"]
        if path == "/api/poc/health":  # never limited
            assert "429" not in responses and not budget & set(responses["200"]["headers"])
            continue
        refused = responses["429"]
        assert refused["content"] == {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}
        required = {name for name, header in refused["headers"].items() if header.get("required")}
        assert required == {"Retry-After", *budget}
        assert refused["headers"]["Retry-After"]["schema"] == {"type": "integer", "minimum": 1}
        assert budget <= set(responses["200"]["headers"]), path


def test_server_limits_are_described_once_not_as_responses_of_each_operation(document):
    # generated clients would type every error `Problem | str` for gunicorn's text/html answers
    assert "414 URI Too Long" in document["info"]["description"]
    assert "431 Request Header Fields Too Large" in document["info"]["description"]
    for item in document["paths"].values():
        assert {"414", "431"}.isdisjoint(item["get"]["responses"])


def test_every_error_is_problem_details(document):
    for path, item in document["paths"].items():
        responses = item["get"]["responses"]
        assert "200" in responses and "400" in responses, path
        for status, response in responses.items():
            if status.startswith(("4", "5")) and (path, status) != ("/api/poc/health", "503"):
                assert response["content"] == {
                    "application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}
                }


def test_the_health_503_is_documented_as_the_health_answer_it_is(make_app, tmp_path, document):
    refused = document["paths"]["/api/poc/health"]["get"]["responses"]["503"]
    assert refused["content"] == {"application/json": {"schema": {"$ref": "#/components/schemas/HealthResponse"}}}
    assert refused["headers"]["Cache-Control"] == {"schema": {"type": "string", "enum": ["no-store"]}, "required": True}
    assert set(refused["headers"]) == {
        "Cache-Control", "X-Request-ID", "Access-Control-Allow-Origin", "Access-Control-Expose-Headers"
    }  # fmt: skip
    # a database behind the migrations: not ready
    client = make_app(DATABASE_URL=f"sqlite:///{tmp_path}/empty.sqlite3").test_client()
    served = client.get("/api/poc/health")
    assert (served.status_code, served.mimetype) == (503, "application/json")
    assert served.headers["Cache-Control"] == "no-store"
    assert set(refused["headers"]) <= set(served.headers.keys())
    OAS30Validator(resolve(refused["content"]["application/json"]["schema"], document)).validate(served.get_json())


def test_every_csv_answer_documents_its_file_name(document):
    for path, item in document["paths"].items():
        success = item["get"]["responses"]["200"]
        if "text/csv" in success["content"]:
            assert success["headers"]["Content-Disposition"]["description"].startswith("attachment; filename="), path


def test_every_property_has_description_and_example(document):
    for name, schema in document["components"]["schemas"].items():
        assert schema["additionalProperties"] is False
        # every property is always there, but for those whose description says when an answer leaves them out
        assert schema["required"] == [
            prop for prop, definition in schema["properties"].items() if "x-omitted-when" not in definition
        ], name
        for prop, definition in schema["properties"].items():
            assert definition.get("description"), (name, prop)
            assert {"example", "allOf", "anyOf", "items"} & set(definition), (name, prop)  # a nested object has its own


def test_benchmark_figures_that_can_be_missing_are_nullable(document):
    schemas = document["components"]["schemas"]
    for name, props in [
        ("Benchmark", ["avg_cost_pct", "weighted_avg_cost_pct", "smart_avg_cost_pct"]),
        ("BenchmarkResponse", ["avgCost", "weightedAvgCost", "smartAvgCost"]),
    ]:
        assert [schemas[name]["properties"][prop].get("nullable") for prop in props] == [True] * 3
        for prop in ("cheapest", "costliest"):  # the corridor's schema, or null: not "or any object"
            nested = schemas[name]["properties"][prop]
            assert (len(nested["allOf"]), nested["nullable"], "anyOf" in nested) == (1, True, False)


@pytest.mark.parametrize(
    "path, query", [(p, q) for queries in (SAMPLE_QUERIES, SURVEY_QUERIES) for p, qs in queries.items() for q in qs]
)
def test_served_responses_match_the_document(request, auth, document, path, query):
    client = request.getfixturevalue("surveyed_app" if path in SURVEY_QUERIES else "app").test_client()
    url = path.replace("{corridor_id}", "1") + query
    response = client.get(url, headers=auth)
    documented = document["paths"][path]["get"]["responses"]["200"]
    assert response.status_code == 200
    [media_type] = [name for name in documented["content"] if response.mimetype == name]
    schema = resolve(documented["content"][media_type]["schema"], document)
    OAS30Validator(schema).validate(response.get_json() if media_type == "application/json" else response.text)
    assert response.headers["Cache-Control"] in documented["headers"]["Cache-Control"]["schema"]["enum"]
    problem = client.get(url + ("&" if "?" in url else "?") + "bogus=1", headers=auth)
    assert problem.status_code == 400
    OAS30Validator(resolve({"$ref": "#/components/schemas/Problem"}, document)).validate(problem.get_json())


def test_docs_page_is_served_offline(client):
    page = client.get("/api/docs")
    assert page.status_code == 200 and page.mimetype == "text/html"
    assert page.headers["Content-Security-Policy"] == (
        "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'"
    )
    assert page.headers["X-Frame-Options"] == "DENY"
    html = page.get_data(as_text=True)
    assert "http://" not in html and "https://" not in html
    for name, mimetype in [
        ("swagger-ui.css", "text/css"),
        ("swagger-ui-bundle.js", "text/javascript"),
        ("docs.js", "text/javascript"),
        ("docs.css", "text/css"),
    ]:
        asset = client.get(f"/api/docs/assets/{name}")
        assert asset.status_code == 200 and asset.mimetype == mimetype
        assert f"/api/docs/assets/{name}" in html
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in html
    missing = client.get("/api/docs/assets/index.html")
    assert missing.status_code == 404 and missing.mimetype == "application/problem+json"


def test_docs_page_links_to_sign_up_and_to_the_guide(client, document):
    html = client.get("/api/docs").get_data(as_text=True)
    assert '<a href="/account/signup" class="key-link">Get an API key</a>' in html
    assert '<a href="/api/docs/guide">Guide: how every figure is computed</a>' in html
    assert document["info"]["description"].endswith(
        "[/api/docs/guide](/api/docs/guide). Get a key for Group A at [/account/signup](/account/signup)."
    )


@pytest.mark.parametrize("path", ["/api/benchmark", "/api/poc/benchmark"])
def test_the_benchmark_examples_are_the_figures_served_on_the_shipped_data(client, auth, document, path):
    served = client.get(path, headers=auth).get_json()
    schemas = document["components"]["schemas"]
    schema = document["paths"][path]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    properties = schemas[schema["$ref"].rsplit("/", 1)[1]]["properties"]
    examples = {name: prop["example"] for name, prop in properties.items() if "example" in prop}
    cheapest = schemas[properties["cheapest"]["allOf"][0]["$ref"].rsplit("/", 1)[1]]["properties"]
    examples["cheapest"] = {name: prop["example"] for name, prop in cheapest.items()}
    assert examples == {name: value for name, value in served.items() if name not in ("costliest", "sample", "survey")}


@pytest.mark.parametrize(
    ("path", "served_at"),
    [
        ("/api/costs?corridor=KEN-TZA", lambda body: body["periods"][0]),
        ("/api/poc/costs?corridor=KEN-TZA", lambda body: body["periods"][0]),
        ("/api/costs/global", lambda body: body["periods"][-1]),
        ("/api/poc/costs/global", lambda body: body["periods"][-1]),
    ],
)
def test_the_cost_examples_are_the_figures_served_on_the_shipped_rows(surveyed_app, auth, document, path, served_at):
    served = served_at(surveyed_app.test_client().get(path, headers=auth).get_json())
    schemas = document["components"]["schemas"]
    response = document["paths"][path.split("?")[0]]["get"]["responses"]["200"]["content"]["application/json"]
    periods = schemas[response["schema"]["$ref"].rsplit("/", 1)[1]]["properties"]["periods"]["items"]
    properties = schemas[periods["$ref"].rsplit("/", 1)[1]]["properties"]
    assert {name: prop["example"] for name, prop in properties.items() if name in served} == served
    # the shipped rows' periods have no published figure: those fields, and only those, are left out
    assert {name for name in properties if name not in served} == {
        name for name, prop in properties.items() if "published" in prop.get("x-omitted-when", "")
    }
