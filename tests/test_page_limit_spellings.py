"""`limit` is written in ASCII digits with no leading zero, as a page's links write it: any other spelling of a number
is a 400 naming it, not a page."""

import pytest

PATHS = ("/api/corridors", "/api/poc/corridors", "/api/poc/providers", "/api/poc/full")


@pytest.mark.parametrize(
    "spelling",
    [
        "%205",  # a space before it
        "5%20",
        "5%0a",  # a newline after it
        "+5",
        "5_0",
        "%EF%BC%95",  # full-width 5
        "%E0%A5%AB",  # Devanagari 5
        "00005",
        "05",
        "0",
    ],
)
@pytest.mark.parametrize("path", PATHS)
def test_limit_in_any_other_spelling_than_ascii_digits_is_a_400(client, auth, path, spelling):
    answer = client.get(f"{path}?limit={spelling}", headers=auth)
    assert (answer.status_code, answer.mimetype) == (400, "application/problem+json")
    body = answer.get_json()
    assert (body["code"], body["detail"]) == (
        "invalid_parameter",
        "Query parameter 'limit' must be a whole number from 1 to 500.",
    )
    assert "Link" not in answer.headers


@pytest.mark.parametrize("spelling, count", [("5", 5), ("10", 10), ("500", None)])
@pytest.mark.parametrize("path", ["/api/poc/corridors", "/api/poc/full"])
def test_limit_in_ascii_digits_gives_that_many(client, path, spelling, count):
    answer = client.get(f"{path}?limit={spelling}")
    assert answer.status_code == 200
    body = answer.get_json()
    assert body["count"] == (count if count is not None else len(client.get(path).get_json()["corridors"]))
    assert answer.headers["Link"].startswith(f'<{path}?limit={spelling}>; rel="first"')
