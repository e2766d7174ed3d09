"""One problem-details shape for every error, checks in order, no 5xx ever."""

import pytest

PROBLEM_FIELDS = ["type", "title", "status", "detail", "code", "ok"]


def assert_problem(response, status, code, title):
    assert response.status_code == status
    assert response.mimetype == "application/problem+json"
    assert response.headers["Cache-Control"] == "no-store"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    body = response.get_json()
    assert list(body) == PROBLEM_FIELDS
    assert body["type"] == "about:blank"
    assert (body["status"], body["code"], body["title"], body["ok"]) == (status, code, title, False)
    assert body["detail"].endswith(".") and len(body["detail"]) < 200
    return body


@pytest.mark.parametrize(
    "method, url, use_key, status, code, title",
    [
        ("GET", "/api/providers", True, 400, "missing_parameter", "Bad Request"),
        ("GET", "/api/providers?corridor=", True, 400, "missing_parameter", "Bad Request"),
        ("GET", "/api/providers?corridor=USDMXN", True, 400, "invalid_parameter", "Bad Request"),
        ("GET", "/api/providers?corridor=USD_XYZ", True, 404, "unknown_corridor", "Not Found"),
        ("GET", "/api/providers?corridor=MXN_USD", True, 404, "unknown_corridor", "Not Found"),
        ("GET", "/api/midrate?from=USD&to=XYZ", True, 404, "unknown_currency", "Not Found"),
        ("GET", "/api/nowhere", True, 404, "not_found", "Not Found"),
        ("GET", "/docs", False, 404, "not_found", "Not Found"),
        ("GET", "/api/corridors/", True, 404, "not_found", "Not Found"),
        ("GET", "/api/corridors", False, 401, "missing_api_key", "Unauthorized"),
        ("POST", "/api/corridors", True, 405, "method_not_allowed", "Method Not Allowed"),
        ("DELETE", "/api/midrate", False, 405, "method_not_allowed", "Method Not Allowed"),
    ],
)
def test_every_error_code(client, auth, method, url, use_key, status, code, title):
    response = client.open(url, method=method, headers=auth if use_key else {})
    assert_problem(response, status, code, title)


def test_the_spec_example(client, auth):
    body = client.get("/api/providers?corridor=usd_xyz", headers=auth).get_json()
    assert body == {
        "type": "about:blank",
        "title": "Not Found",
        "status": 404,
        "detail": "No active corridor USD_XYZ.",
        "code": "unknown_corridor",
        "ok": False,
    }


@pytest.mark.parametrize("method", ["POST", "PUT", "PATCH", "DELETE", "TRACE"])
def test_405_carries_allow(client, method):
    response = client.open("/api/providers", method=method)
    assert_problem(response, 405, "method_not_allowed", "Method Not Allowed")
    assert response.headers["Allow"] == "GET, HEAD, OPTIONS"


def test_500_hides_internals_and_logs_the_traceback(make_app, caplog):
    own_app = make_app()

    @own_app.get("/boom")
    def boom():
        raise RuntimeError("secret internal state")

    response = own_app.test_client().get("/boom")
    body = assert_problem(response, 500, "internal_error", "Internal Server Error")
    assert "secret" not in response.get_data(as_text=True) and "Traceback" not in body["detail"]
    assert "secret internal state" in caplog.text and "Traceback" in caplog.text


@pytest.mark.parametrize(
    "url, status, code, detail",
    [
        # unknown or repeated parameter comes before missing and malformed ones
        ("/api/providers?corridr=USD_MXN", 400, "invalid_parameter", "Unknown query parameter 'corridr'"),
        ("/api/midrate?from=usd&bogus=1", 400, "invalid_parameter", "Unknown query parameter 'bogus'"),
        ("/api/corridors?corridor=USD_MXN", 400, "invalid_parameter", "this endpoint takes 'limit', 'cursor'"),
        ("/api/currencies?corridor=USD_MXN", 400, "invalid_parameter", "this endpoint takes no query parameters"),
        ("/api/providers?corridor=USD_MXN&corridor=USD_INR", 400, "invalid_parameter", "given more than once"),
        ("/api/providers?corridor=x&corridor=y&z=1", 400, "invalid_parameter", "given more than once"),
        ("/api/providers?api_key=anything", 400, "invalid_parameter", "Unknown query parameter 'api_key'"),
        # missing comes before malformed
        ("/api/midrate?from=toolong", 400, "missing_parameter", "Query parameter 'to' needs a value"),
        ("/api/midrate?to=usd", 400, "missing_parameter", "Query parameter 'from' needs a value"),
        # malformed comes before not served
        ("/api/midrate?from=US1&to=XYZ", 400, "invalid_parameter", "Query parameter 'from' must be a three-letter"),
        ("/api/midrate?from=USD&to=XY", 400, "invalid_parameter", "Query parameter 'to' must be a three-letter"),
        ("/api/midrate?from=QQQ&to=USD", 404, "unknown_currency", "No rates for currency QQQ"),
    ],
)
def test_checks_run_in_spec_order(client, auth, url, status, code, detail):
    response = client.get(url, headers=auth)
    assert response.status_code == status
    body = response.get_json()
    assert body["code"] == code
    assert detail in body["detail"]


def test_auth_comes_before_parameters(client):
    response = client.get("/api/providers?corridor=nonsense&extra=1")
    assert response.get_json()["code"] == "missing_api_key"


HOSTILE_VALUES = [
    "A" * 10_000,
    "USD%00",
    "%00",
    "USD%0A",
    "USD\u00a0",
    "%C3%BCSD",
    "%EF%BC%B5%EF%BC%B3%EF%BC%A4",  # full-width USD
    "%F0%9F%92%B8",
    "%FF%FE",
    "USD%0D%0AX-Injected:%201",
    "usd_mxn%00",
    "USD_MXN%0A",
    "%E0%A5%A7%E0%A5%A8%E0%A5%A9",  # Devanagari digits
    "' OR 1=1 --",
    "%3Cscript%3E",
    "..%2F..%2Fetc%2Fpasswd",
]


@pytest.mark.parametrize("value", HOSTILE_VALUES)
@pytest.mark.parametrize(
    "template",
    [
        "/api/providers?corridor={}",
        "/api/midrate?from={}&to=USD",
        "/api/midrate?from=USD&to={}",
        "/api/corridors?{}=1",
        "/api/{}",
        "/api/poc/providers?corridor={}",
        "/api/poc/corridors?from={}&to=MXN",
        "/api/poc/corridors/{}",
        "/api/poc/full?{0}={0}",
    ],
)
def test_hostile_values_get_a_clear_4xx(client, auth, template, value):
    response = client.get(template.format(value), headers=auth)
    assert 400 <= response.status_code < 500
    assert response.mimetype == "application/problem+json"
    body = response.get_json()
    assert body["code"] in {"invalid_parameter", "missing_parameter", "not_found"}
    assert len(body["detail"]) < 200
    assert "\x00" not in body["detail"] and "\n" not in body["detail"]


def test_long_parameter_name_is_cut_in_the_detail(client, auth):
    body = client.get("/api/currencies?" + "x" * 5000 + "=1", headers=auth).get_json()
    assert body["detail"] == f"Unknown query parameter '{'x' * 40}…'; this endpoint takes no query parameters."


@pytest.mark.parametrize("path", ["/", "/api/poc/providers", "/api/poc/health", "/api/providers"])
def test_a_query_string_that_is_not_utf8_is_a_400(client, auth, path):
    # gunicorn refuses such a request line itself; `flask run` and other servers pass the bytes on
    response = client.get(path, headers=auth, environ_overrides={"QUERY_STRING": "corridor=\xff"})
    assert response.status_code == 400 and response.mimetype == "application/problem+json"
    assert response.get_json()["code"] == "invalid_parameter"
    assert response.get_json()["detail"] == "The query string is not UTF-8: percent-encode other bytes."
