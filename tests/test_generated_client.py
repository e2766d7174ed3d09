"""A Python client generated from the served OpenAPI document calls every operation of a real gunicorn.

openapi-python-client writes the client once per module from /api/openapi.json; each test calls an
operation's `sync_detailed` and checks the typed models it parses against figures re-derived from the
data file. The generated client trusts the document, so a parameter it cannot send, a field typed
Any, or a declared type the server does not keep shows up here.
"""

import datetime as dt
import importlib
import json
import re
import subprocess
import sys
import types
import typing

import attrs
import httpx
import pytest
from conftest import RAW_KEY, running_gunicorn
from expected import (
    active,
    corridor_costs,
    display_date,
    ecb_history,
    group_a_entries,
    group_b_entries,
    half_up,
    key,
    mid,
    pct,
    ranked,
    shipped_seed,
    sig6,
    updated,
)

PACKAGE = "corridor_api_client"
RAW = shipped_seed()
ACTIVE = active(RAW)
USD_MXN = next(c for c in ACTIVE if key(c) == "USD_MXN")
CODES = sorted(RAW["rates"]["interbank"])

# the least each operation needs to answer 200; the tests further down check what it answers
MINIMAL_CALLS = {
    "api_corridors": {},
    "api_currencies": {},
    "api_midrate": {"from_": "USD", "to": "MXN"},
    "api_providers": {"corridor": "USD_MXN"},
    "poc_corridors": {},
    "poc_corridor": {"corridor_id": "1"},
    "poc_currencies": {},
    "poc_full": {},
    "poc_guide": {},
    "poc_health": {},
    "poc_providers": {"corridor": "USD_MXN"},
    "api_history": {"from_": "USD", "to": "MXN"},
    "poc_history": {"from_": "USD", "to": "MXN"},
    "api_history_csv": {"from_": "USD", "to": "MXN"},
    "poc_history_csv": {"from_": "USD", "to": "MXN"},
    "api_benchmark": {},
    "poc_benchmark": {},
    "api_costs": {"corridor": "KEN-TZA"},
    "poc_costs": {"corridor": "KEN-TZA"},
    "api_costs_csv": {"corridor": "KEN-TZA"},
    "poc_costs_csv": {"corridor": "KEN-TZA"},
    "api_global_costs": {},
    "poc_global_costs": {},
    "api_cost_corridors": {},
    "poc_cost_corridors": {},
}
# the operations of the survey's cost over time: called on an app with the shipped survey rows
SURVEY_OPERATIONS = {
    "api_costs",
    "poc_costs",
    "api_costs_csv",
    "poc_costs_csv",
    "api_global_costs",
    "poc_global_costs",
    "api_cost_corridors",
    "poc_cost_corridors",
}

# the options of /api/providers and /api/poc/providers, as query strings give them
PROVIDER_OPTIONS = [
    pytest.param({}, id="defaults"),
    pytest.param({"amount": "1000", "payout": "cash_pickup", "sort": "speed"}, id="amount-payout-speed"),
    pytest.param({"amount": "250.5", "sort": "score"}, id="decimal-amount-score"),
    pytest.param({"payout": "bank_deposit", "sort": "cost"}, id="payout-cost"),
]


# --- generation, server, clients -------------------------------------------------------------------


@pytest.fixture(scope="module")
def document(app):
    response = app.test_client().get("/api/openapi.json")
    assert response.status_code == 200
    return response.get_json()


def operation_ids(document):
    return {
        operation["operationId"]
        for item in document["paths"].values()
        for method, operation in item.items()
        if method in {"get", "head", "post", "put", "patch", "delete"}
    }


def secured(document):
    """The operationIds that need a key."""
    return {
        operation["operationId"]
        for item in document["paths"].values()
        for operation in item.values()
        if isinstance(operation, dict) and operation.get("security")
    }


@pytest.fixture(scope="module")
def generated(document, tmp_path_factory):
    """The client package generated from the document, importable for this module only."""
    work = tmp_path_factory.mktemp("generated-client")
    spec = work / "openapi.json"
    spec.write_text(json.dumps(document), encoding="utf-8")
    config = work / "config.yaml"
    config.write_text("post_hooks: []\n", encoding="utf-8")  # ruff would only restyle the code
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "openapi_python_client",
            "generate",
            "--path",
            str(spec),
            "--output-path",
            str(work / PACKAGE),
            "--meta",
            "none",
            "--config",
            str(config),
            "--fail-on-warning",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    sys.path.insert(0, str(work))
    try:
        package = importlib.import_module(PACKAGE)
        modules = sorted((work / PACKAGE / "api").glob("*/*.py"))
        operations = {
            path.stem: importlib.import_module(f"{PACKAGE}.api.{path.parent.name}.{path.stem}")
            for path in modules
            if path.stem != "__init__"
        }
        yield types.SimpleNamespace(
            package=package,
            models=importlib.import_module(f"{PACKAGE}.models"),
            operations=operations,
            tags={path.stem: path.parent.name for path in modules if path.stem != "__init__"},
        )
    finally:
        sys.path.remove(str(work))
        for name in [n for n in sys.modules if n == PACKAGE or n.startswith(f"{PACKAGE}.")]:
            del sys.modules[name]


@pytest.fixture(scope="module")
def base_url(server):
    """conftest's gunicorn: the shipped data with RAW_KEY live."""
    return server.base


_HTTPX = {"timeout": httpx.Timeout(10), "httpx_args": {"trust_env": False}}  # loopback: never a proxy


@pytest.fixture(scope="module")
def keyed(generated, base_url):
    """The generated AuthenticatedClient, sending RAW_KEY, for Group A."""
    with generated.package.AuthenticatedClient(base_url=base_url, token=RAW_KEY, **_HTTPX) as client:
        yield client


@pytest.fixture(scope="module")
def public(generated, base_url):
    """The generated Client, with no key, for Group B."""
    with generated.package.Client(base_url=base_url, **_HTTPX) as client:
        yield client


@pytest.fixture(scope="module")
def surveyed(generated, surveyed_app):
    """The generated clients, keyed and public, calling the app with the shipped survey rows in this process."""
    transport = {"timeout": httpx.Timeout(10), "httpx_args": {"transport": httpx.WSGITransport(app=surveyed_app)}}
    with (
        generated.package.AuthenticatedClient(base_url="http://surveyed", token=RAW_KEY, **transport) as keyed,
        generated.package.Client(base_url="http://surveyed", **transport) as public,
    ):
        yield types.SimpleNamespace(keyed=keyed, public=public)


# --- checks on what the client parses ----------------------------------------------------------------


def _hints(cls):
    # the models import their nested models only for type checkers: resolve names in the models package
    module = sys.modules[cls.__module__]
    return typing.get_type_hints(cls, globalns={**vars(sys.modules[f"{PACKAGE}.models"]), **vars(module)})


def mismatches(value, hint, where="parsed"):
    """Where `value` is not of its generated type `hint`, recursively through models and lists."""
    if hint is typing.Any:
        return []
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        options = typing.get_args(hint)
        return [] if any(not mismatches(value, option) for option in options) else [f"{where}: {value!r} is not {hint}"]
    if typing.get_origin(hint) is list:
        if not isinstance(value, list):
            return [f"{where}: {value!r} is not a list"]
        return [m for i, item in enumerate(value) for m in mismatches(item, typing.get_args(hint)[0], f"{where}[{i}]")]
    if attrs.has(hint):
        if not isinstance(value, hint):
            return [f"{where}: {value!r} is not {hint.__name__}"]
        hints = _hints(hint)
        return [
            m
            for f in attrs.fields(hint)
            if f.name != "additional_properties"
            for m in mismatches(getattr(value, f.name), hints[f.name], f"{where}.{f.name}")
        ]
    if hint is float:  # a JSON number: an int is a float's value too, a bool is not
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
    elif hint is int:
        ok = isinstance(value, int) and not isinstance(value, bool)
    else:
        ok = isinstance(value, hint)
    return [] if ok else [f"{where}: {value!r} is not {getattr(hint, '__name__', hint)}"]


def call(operation, client, *args, model, **kwargs):
    """The operation's 200, parsed as `model` (or a list of them), every field of its declared type and none lost."""
    response = operation.sync_detailed(*args, client=client, **kwargs)
    assert response.status_code == 200, response.content
    parsed = response.parsed
    hint = list[model] if isinstance(parsed, list) else model
    assert mismatches(parsed, hint) == []
    dumped = [item.to_dict() for item in parsed] if isinstance(parsed, list) else parsed.to_dict()
    assert dumped == json.loads(response.content)
    return parsed


def with_enums(options, payout_enum, sort_enum):
    """Query-string options with payout and sort as the generated enums."""
    enums = {"payout": payout_enum, "sort": sort_enum}
    return {name: enums[name](value) if name in enums else value for name, value in options.items()}


def as_expected(options):
    """The same options for expected.ranked: amount a number."""
    return {name: float(value) if name == "amount" else value for name, value in options.items()}


# --- the whole document ------------------------------------------------------------------------------


def test_every_documented_operation_is_generated_and_answers_200(generated, document, keyed, public, surveyed):
    ids = operation_ids(document)
    assert set(generated.operations) == ids
    assert set(MINIMAL_CALLS) == ids, "give every operation its least call in MINIMAL_CALLS"
    assert set(generated.tags.values()) == {"group_a", "group_b"}
    for operation_id, kwargs in MINIMAL_CALLS.items():
        operation = generated.operations[operation_id]
        clients = surveyed if operation_id in SURVEY_OPERATIONS else types.SimpleNamespace(keyed=keyed, public=public)
        client = clients.keyed if operation_id in secured(document) else clients.public
        response = operation.sync_detailed(client=client, **kwargs)
        assert response.status_code == 200, (operation_id, response.content)
        if operation_id.endswith("_csv"):  # a file: its text
            header = "period,published_average_total_cost_pct," if "costs" in operation_id else "date,rate\r\n"
            assert isinstance(response.parsed, str) and response.parsed.startswith(header), operation_id
            continue
        assert attrs.has(type(response.parsed)) or isinstance(response.parsed, list), operation_id
        assert not isinstance(response.parsed, generated.models.Problem), operation_id


def test_only_the_key_needing_operations_are_group_a(generated, document):
    assert secured(document) == {op for op, tag in generated.tags.items() if tag == "group_a"}
    assert all(op.startswith("api_") for op in secured(document))


def test_the_models_type_every_field_but_the_guides_example(generated):
    untyped = []
    for name in generated.models.__all__:
        cls = getattr(generated.models, name)
        if attrs.has(cls):
            untyped += [
                f"{name}.{field}"
                for field, hint in _hints(cls).items()
                if typing.Any in (hint, *typing.get_args(hint)) and field != "additional_properties"
            ]
    assert untyped == ["GuideField.example"]  # an example of any field: any JSON value


@pytest.mark.parametrize("model, nested", [("Benchmark", "BenchmarkCorridor"), ("BenchmarkResponse", "CorridorCost")])
def test_the_benchmark_extremes_are_a_corridor_or_none(generated, model, nested):
    hints = _hints(getattr(generated.models, model))
    corridor = getattr(generated.models, nested)
    assert set(typing.get_args(hints["cheapest"])) == set(typing.get_args(hints["costliest"])) == {corridor, type(None)}


def test_every_operation_types_its_errors_as_problems_alone(generated):
    problem = generated.models.Problem
    for name, module in generated.operations.items():
        parsed = typing.get_type_hints(module.sync_detailed, vars(module))["return"]
        union = typing.get_args(typing.get_args(parsed)[0])  # Response[X | Problem] → X, Problem
        assert problem in union and (str in union) is name.endswith("_csv"), (name, union)  # text: the CSV files only


def test_problems_type_ok_as_bool_and_type_as_str(generated):
    hints = _hints(generated.models.Problem)
    assert (hints["ok"], hints["type_"]) == (bool, str)


# --- Group A -------------------------------------------------------------------------------------------


def test_group_a_corridors_are_summaries_by_id_led_by_usd_mxn(generated, keyed):
    summaries = call(generated.operations["api_corridors"], keyed, model=generated.models.CorridorSummary)
    pairs = [(c["from_currency"], c["to_currency"]) for c in ACTIVE]
    assert [(s.from_currency, s.to_currency) for s in summaries] == pairs
    first, best = summaries[0], ranked(RAW, USD_MXN)[0]
    assert (first.from_currency, first.to_currency, first.source, first.destination) == (
        "USD",
        "MXN",
        "United States",
        "Mexico",
    )
    assert first.mid_market == sig6(mid(RAW, "USD", "MXN"))
    assert (first.best_provider, first.best_rate, first.true_cost_pct) == (
        best["name"],
        sig6(best["rate"]),
        half_up(best["cost"]),
    )
    assert (first.compliance, first.score) == (USD_MXN["compliance"], USD_MXN["score"])


@pytest.mark.parametrize("options", PROVIDER_OPTIONS)
def test_group_a_providers_of_usd_mxn_are_ranked_as_the_options_say(generated, keyed, options):
    models = generated.models
    providers = call(
        generated.operations["api_providers"],
        keyed,
        model=models.RankedProvider,
        corridor="usd_mxn",
        **with_enums(options, models.ApiProvidersPayout, models.ApiProvidersSort),
    )
    assert [p.to_dict() for p in providers] == group_a_entries(RAW, USD_MXN, **as_expected(options))
    assert [p.rank for p in providers] == list(range(1, len(providers) + 1))
    if "payout" in options:
        assert all(options["payout"] in p.payout_methods for p in providers)
    if "amount" in options:
        assert {p.send_amount for p in providers} == {float(options["amount"])}


def test_group_a_currencies_list_usd_as_us_dollar(generated, keyed):
    currencies = call(generated.operations["api_currencies"], keyed, model=generated.models.Currency)
    assert [c.code for c in currencies] == CODES
    assert {c.code: c.name for c in currencies}["USD"] == "US Dollar"


@pytest.mark.parametrize("frm, to", [("USD", "MXN"), ("eur", "inr"), ("GBP", "GBP")])
def test_group_a_midrate_gives_both_rates_of_a_pair(generated, keyed, frm, to):
    rate = call(generated.operations["api_midrate"], keyed, model=generated.models.MidRate, from_=frm, to=to)
    assert (rate.from_, rate.to) == (frm.upper(), to.upper())
    assert rate.ref_rate_a == sig6(mid(RAW, frm.upper(), to.upper(), "consumer"))
    assert rate.ref_rate_b == sig6(mid(RAW, frm.upper(), to.upper()))
    assert rate.updated == updated(RAW, frm.upper(), to.upper())


@pytest.mark.parametrize("operation_id", sorted(op for op in MINIMAL_CALLS if op.startswith("api_")))
def test_group_a_answers_the_keyless_client_with_a_typed_problem(generated, public, operation_id):
    response = generated.operations[operation_id].sync_detailed(client=public, **MINIMAL_CALLS[operation_id])
    assert response.status_code == 401
    problem = response.parsed
    assert isinstance(problem, generated.models.Problem) and mismatches(problem, generated.models.Problem) == []
    assert (problem.type_, problem.status, problem.code, problem.ok) == ("about:blank", 401, "missing_api_key", False)


def test_a_client_over_its_budget_gets_a_typed_429_with_when_to_retry(generated, tmp_path):
    with running_gunicorn(
        tmp_path / "gunicorn.log", API_KEYS=RAW_KEY, WEB_CONCURRENCY="1", RATE_LIMITS="on", RATE_LIMIT_API="2/minute"
    ) as server:
        with generated.package.AuthenticatedClient(base_url=server.base, token=RAW_KEY, **_HTTPX) as client:
            answers = [generated.operations["api_corridors"].sync_detailed(client=client) for _ in range(3)]
    assert [a.status_code for a in answers] == [200, 200, 429]
    problem = answers[-1].parsed
    assert isinstance(problem, generated.models.Problem) and mismatches(problem, generated.models.Problem) == []
    assert (problem.status, problem.code, problem.ok) == (429, "rate_limited", False)
    assert 1 <= int(answers[-1].headers["Retry-After"]) <= 60


@pytest.mark.parametrize("operation_id", ["api_history_csv", "poc_history_csv"])
def test_a_generated_client_fetches_a_series_as_csv_text(generated, keyed, public, operation_id):
    client = keyed if operation_id.startswith("api_") else public
    response = generated.operations[operation_id].sync_detailed(
        client=client, from_="USD", to="MXN", start=dt.date(2026, 10, 26), end=dt.date(2026, 10, 30)
    )
    assert response.status_code == 200 and response.headers["Content-Type"] == "text/csv; charset=utf-8"
    days = {day: rates for day, rates in ecb_history().items() if dt.date(2026, 10, 26) <= day <= dt.date(2026, 10, 30)}
    rows = [f"{day.isoformat()},{sig6(rates['MXN'] / rates['USD'])!r}" for day, rates in days.items()]
    assert len(rows) == 5
    assert response.parsed == "\r\n".join(["date,rate", *rows]) + "\r\n"
    assert response.headers["Content-Disposition"] == 'attachment; filename="USD_MXN_2026-10-26_2026-10-30.csv"'


@pytest.mark.parametrize("group", ["api", "poc"])
def test_a_generated_client_reads_a_corridors_costs_as_json_and_csv(generated, surveyed, surveyed_app, group):
    client = surveyed.keyed if group == "api" else surveyed.public
    model = generated.models.Costs if group == "api" else generated.models.CostsResponse
    costs = call(generated.operations[f"{group}_costs"], client, model=model, corridor="KEN-TZA", start="2025Q3")
    served = (
        surveyed_app.test_client()
        .get(
            f"/api/{'poc/' * (group == 'poc')}costs?corridor=KEN-TZA&start=2025Q3",
            headers={"Authorization": f"Bearer {RAW_KEY}"},
        )
        .get_json()
    )
    assert costs.to_dict() == served and [p.period for p in costs.periods] == ["2025Q3"]
    text = generated.operations[f"{group}_costs_csv"].sync_detailed(client=client, corridor="KEN-TZA", start="2025Q3")
    average = served["periods"][0]["average_total_cost_pct" if group == "api" else "averageTotalCostPct"]
    assert text.parsed.splitlines()[1].startswith(f"2025Q3,,{str(average).rstrip('%')},")  # no published figure
    assert text.headers["Content-Disposition"] == 'attachment; filename="KEN-TZA_costs.csv"'


@pytest.mark.parametrize("group", ["api", "poc"])
def test_a_generated_client_reads_the_global_costs(generated, surveyed, group):
    client = surveyed.keyed if group == "api" else surveyed.public
    model = generated.models.GlobalCosts if group == "api" else generated.models.GlobalCostsResponse
    periods = call(generated.operations[f"{group}_global_costs"], client, model=model).periods
    assert [(p.period, p.observations, p.corridors) for p in periods] == [("2025Q1", 82, 8), ("2025Q3", 80, 8)]


def test_a_generated_client_pages_through_the_corridors_by_link_and_by_next(generated, keyed, public):
    import urllib.parse

    def cursor_of(url):
        return urllib.parse.parse_qs(urllib.parse.urlsplit(url).query)["cursor"][0]

    seen, cursor = [], generated.package.types.UNSET
    while True:  # Group A: the Link header's rel="next"
        answer = generated.operations["api_corridors"].sync_detailed(client=keyed, limit=4, cursor=cursor)
        assert answer.status_code == 200
        seen += [(c.from_currency, c.to_currency) for c in answer.parsed]
        following = re.search(r'<([^>]+)>; rel="next"', answer.headers["Link"])
        if following is None:
            break
        cursor = cursor_of(following.group(1))
    assert seen == [(c["from_currency"], c["to_currency"]) for c in ACTIVE]
    ids, cursor = [], generated.package.types.UNSET
    while True:  # Group B: `next`
        page = call(
            generated.operations["poc_corridors"],
            public,
            model=generated.models.CorridorListResponse,
            limit=4,
            cursor=cursor,
        )
        ids += [c.id for c in page.corridors]
        if page.next_ is None:
            break
        cursor = cursor_of(page.next_)
    assert ids == [c["id"] for c in ACTIVE] and len(ids) > 4


# --- Group B -------------------------------------------------------------------------------------------


def test_group_b_corridors_list_every_active_corridor(generated, public):
    listing = call(generated.operations["poc_corridors"], public, model=generated.models.CorridorListResponse)
    assert listing.ok is True and listing.count == len(ACTIVE) == len(listing.corridors)
    assert [c.id for c in listing.corridors] == [c["id"] for c in ACTIVE]
    assert listing.corridors[0].corridor == "USD\u2192MXN"


@pytest.mark.parametrize(
    "operation_id, args, kwargs",
    [
        pytest.param("poc_corridors", (), {"from_": "usd", "to": "MXN"}, id="by-pair"),
        pytest.param("poc_corridor", ("1",), {}, id="by-id"),
    ],
)
def test_group_b_gives_usd_mxn_by_pair_or_by_id(generated, public, operation_id, args, kwargs):
    one = call(generated.operations[operation_id], public, *args, model=generated.models.CorridorResponse, **kwargs)
    costs = corridor_costs(RAW, USD_MXN)
    assert one.ok is True
    corridor = one.corridor
    assert (corridor.id, corridor.corridor, corridor.compliance) == (1, "USD\u2192MXN", USD_MXN["compliance"])
    assert (corridor.annual_flow_bn, corridor.avg_cost, corridor.best_cost, corridor.settlement) == (
        f"${half_up(USD_MXN['annual_flow_bn'], 1):.1f}B",
        pct(costs["avg"]),
        pct(costs["best"]),
        costs["settlement"],
    )


def test_group_b_providers_without_a_filter_are_grouped_by_corridor(generated, public):
    # a generated client sends every parameter's declared default (here sort=cost) when the caller
    # gives none: the grouped listing has to take it, or the document must not declare it
    groups = call(generated.operations["poc_providers"], public, model=generated.models.ProviderGroupsResponse)
    assert groups.ok is True and groups.count == len(ACTIVE)
    assert [g.corridor for g in groups.corridors] == [key(c) for c in ACTIVE]
    first = groups.corridors[0]
    assert [p.to_dict() for p in first.providers] == group_b_entries(RAW, USD_MXN) and first.count == len(
        first.providers
    )


@pytest.mark.parametrize("options", PROVIDER_OPTIONS)
def test_group_b_providers_of_usd_mxn_are_ranked_as_the_options_say(generated, public, options):
    models = generated.models
    one = call(
        generated.operations["poc_providers"],
        public,
        model=models.ProvidersResponse,
        corridor="usd_mxn",
        **with_enums(options, models.PocProvidersPayout, models.PocProvidersSort),
    )
    expected = group_b_entries(RAW, USD_MXN, **as_expected(options))
    assert (one.ok, one.corridor, one.count) == (True, "USD_MXN", len(expected))
    assert [p.to_dict() for p in one.providers] == expected
    if "payout" in options:
        assert all(options["payout"] in p.payout_methods for p in one.providers)


def test_group_b_currencies_list_usd_as_us_dollar(generated, public):
    listing = call(generated.operations["poc_currencies"], public, model=generated.models.CurrenciesResponse)
    assert listing.ok is True and listing.count == len(listing.currencies)
    assert [c.code for c in listing.currencies] == CODES
    assert {c.code: c.name for c in listing.currencies}["USD"] == "US Dollar"


def test_group_b_full_gives_every_corridor_with_notes_and_providers(generated, public):
    full = call(generated.operations["poc_full"], public, model=generated.models.FullResponse)
    assert (full.ok, full.updated, full.count) == (True, display_date(RAW["as_of"]), len(ACTIVE))
    assert [c.key for c in full.corridors] == [key(c) for c in ACTIVE]
    first = full.corridors[0]
    assert (first.id, first.corridor, first.compliance_notes) == (1, "USD\u2192MXN", USD_MXN["compliance_notes"])
    assert [p.to_dict() for p in first.providers] == group_b_entries(RAW, USD_MXN)


def test_group_b_guide_names_the_fields_with_their_json_types(generated, public):
    guide = call(generated.operations["poc_guide"], public, model=generated.models.GuideResponse)
    assert guide.ok is True and guide.count == len(guide.fields)
    types_by_name = {f.name: f.type_ for f in guide.fields}
    assert {"avgCost": "string", "count": "integer", "ok": "boolean"}.items() <= types_by_name.items()


def test_group_b_health_reports_the_data_date_as_a_date(generated, public):
    health = call(generated.operations["poc_health"], public, model=generated.models.HealthResponse)
    assert (health.ok, health.status, health.corridors) == (True, "ok", len(ACTIVE))
    assert health.data_as_of == dt.date.fromisoformat(RAW["as_of"])
    assert health.uptime_seconds >= 0 and health.version


@pytest.mark.parametrize(
    "operation_id, args, kwargs, status, code",
    [
        pytest.param("poc_corridor", ("999",), {}, 404, "not_found", id="unknown-id"),
        pytest.param("poc_corridors", (), {"from_": "USD"}, 400, "missing_parameter", id="from-without-to"),
        pytest.param("poc_providers", (), {"corridor": "USD_XYZ"}, 404, "unknown_corridor", id="unknown-corridor"),
    ],
)
def test_group_b_answers_a_bad_call_with_a_typed_problem(generated, public, operation_id, args, kwargs, status, code):
    response = generated.operations[operation_id].sync_detailed(*args, client=public, **kwargs)
    assert response.status_code == status
    problem = response.parsed
    assert isinstance(problem, generated.models.Problem) and mismatches(problem, generated.models.Problem) == []
    assert (problem.type_, problem.status, problem.code, problem.ok) == ("about:blank", status, code, False)
