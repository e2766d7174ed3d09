"""Every currency of the rate tables with its English name, from Babel's CLDR data."""

import pytest
from expected import rate_source

from corridor.data.load import DataError, load_dataset

EXPECTED_NAMES = {
    "USD": "US Dollar",
    "EUR": "Euro",
    "MXN": "Mexican Peso",
    "INR": "Indian Rupee",
    "GBP": "British Pound",
    "PHP": "Philippine Peso",
    "NGN": "Nigerian Naira",
    "KRW": "South Korean Won",
}


def test_group_a_currencies(client, auth, raw_seed):
    response = client.get("/api/currencies", headers=auth)
    assert response.status_code == 200 and response.headers["Cache-Control"] == "private, max-age=60"
    body = response.get_json()
    assert [c["code"] for c in body] == sorted(raw_seed["rates"]["interbank"])
    assert all(list(c) == ["code", "name", "source", "date"] and c["name"] and c["name"] != c["code"] for c in body)
    assert [(c["source"], c["date"]) for c in body] == [rate_source(raw_seed, c["code"]) for c in body]
    names = {c["code"]: c["name"] for c in body}
    assert {code: names[code] for code in EXPECTED_NAMES} == EXPECTED_NAMES


def test_group_a_currencies_need_a_key(client):
    assert client.get("/api/currencies").status_code == 401


def test_group_b_currencies_count_every_code_of_the_data_with_its_english_name(client, raw_seed):
    body = client.get("/api/poc/currencies").get_json()
    codes = sorted(raw_seed["rates"]["interbank"])
    assert list(body) == ["ok", "count", "currencies"] and (body["ok"], body["count"]) == (True, len(codes))
    assert [list(c) for c in body["currencies"]] == [["code", "name", "source", "date"]] * len(codes)
    sources = {c["code"]: (c["source"], c["date"]) for c in body["currencies"]}
    assert sources["MXN"] == ("ECB", "2026-10-30") and sources["PKR"] == ("data file", raw_seed["as_of"])
    assert sources["USD"] == ("data file", raw_seed["as_of"])  # the base takes the newest rates' source
    assert [c["code"] for c in body["currencies"]] == codes
    names = {c["code"]: c["name"] for c in body["currencies"]}
    assert {code: names[code] for code in EXPECTED_NAMES} == EXPECTED_NAMES


def test_a_currency_cldr_does_not_know_is_refused(seed_copy, write_seed):
    for table in ("interbank", "consumer"):
        seed_copy["rates"][table]["XYZ"] = 1.5
    with pytest.raises(DataError, match=r"\$\.rates\.interbank: Not ISO 4217 currencies known to CLDR: XYZ"):
        load_dataset(write_seed(seed_copy))
