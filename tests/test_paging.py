"""Lists of corridors by pages: `limit` corridors after the `cursor` the previous page gave, a Link header (RFC 8288) to
the first and next pages, Group B's `next`; whole without `limit`, as before."""

import re

import pytest
from conftest import reread
from expected import active, shipped_seed

IDS = [c["id"] for c in active(shipped_seed())]
# each paged list, and how to read its corridor ids and Group B's `next` from an answer
LISTS = {
    "/api/corridors": (lambda body: [c["key"] for c in body], None),
    "/api/poc/corridors": (lambda body: [c["id"] for c in body["corridors"]], "next"),
    "/api/poc/providers": (lambda body: [g["corridor"] for g in body["corridors"]], "next"),
    "/api/poc/full": (lambda body: [c["id"] for c in body["corridors"]], "next"),
}


def links(response):
    """The Link header as {rel: target}."""
    return {rel: target for target, rel in re.findall(r'<([^>]+)>; rel="(\w+)"', response.headers.get("Link", ""))}


def walk(client, auth, path, limit):
    """Every page of `path` at `limit`, following rel="next" from the first: the answers."""
    pages, url = [], f"{path}?limit={limit}"
    while url:
        answer = client.get(url, headers=auth)
        assert answer.status_code == 200, answer.get_json()
        pages.append(answer)
        url = links(answer).get("next")
        assert len(pages) <= len(IDS)
    return pages


@pytest.mark.parametrize("path", sorted(LISTS))
@pytest.mark.parametrize("limit", [1, 5, 19, 500])
def test_following_next_from_the_first_page_gives_the_whole_list_once(client, auth, path, limit):
    ids, next_field = LISTS[path]
    whole = client.get(path, headers=auth)
    pages = walk(client, auth, path, limit)
    assert [i for page in pages for i in ids(page.get_json())] == ids(whole.get_json())
    assert len(pages) == -(-len(IDS) // limit)
    for number, page in enumerate(pages, 1):
        body = page.get_json()
        assert links(page)["first"] == f"{path}?limit={limit}"
        assert len(ids(body)) == (limit if number < len(pages) else len(IDS) - limit * (len(pages) - 1))
        if next_field:
            assert body[next_field] == links(page).get("next") and body["count"] == len(ids(body))
    assert "next" not in links(pages[-1])


@pytest.mark.parametrize("path", sorted(LISTS))
def test_without_limit_a_list_is_whole_with_no_link(client, auth, path):
    ids, next_field = LISTS[path]
    answer = client.get(path, headers=auth)
    assert "Link" not in answer.headers and len(ids(answer.get_json())) == len(IDS)
    if next_field:
        assert answer.get_json()[next_field] is None


def test_a_page_starts_after_the_corridor_its_cursor_names(client, auth):
    first = client.get("/api/poc/corridors?limit=3").get_json()
    cursor = first["next"].split("cursor=")[1]
    second = client.get(f"/api/poc/corridors?cursor={cursor}").get_json()  # no limit: the rest
    assert [c["id"] for c in first["corridors"] + second["corridors"]] == IDS
    assert second["next"] is None


def test_a_cursor_stays_valid_across_a_refresh(make_app, seed_copy, write_seed, auth):
    path = write_seed(seed_copy)
    app = make_app(SEED_DATA=path)
    client = app.test_client()
    first = client.get("/api/poc/corridors?limit=4").get_json()
    cursor = first["next"].split("cursor=")[1]
    # the data changes between the pages: a corridor of the first page goes, one after the cursor too
    gone = {IDS[1], IDS[6]}
    for corridor in seed_copy["corridors"]:
        if corridor["id"] in gone:
            corridor["active"] = False
    write_seed(seed_copy)
    assert reread(app) == []
    second = client.get(f"/api/poc/corridors?limit=4&cursor={cursor}").get_json()
    assert [c["id"] for c in second["corridors"]] == [i for i in IDS[4:] if i not in gone][:4]


def test_a_cursor_after_the_last_corridor_gives_an_empty_last_page(client):
    from schemas.fields import cursor_for

    body = client.get(f"/api/poc/corridors?limit=10&cursor={cursor_for(max(IDS))}").get_json()
    assert (body["count"], body["corridors"], body["next"]) == (0, [], None)


@pytest.mark.parametrize(
    "query, name, message",
    [
        ("limit=0", "limit", "must be a whole number from 1 to 500."),
        ("limit=501", "limit", "must be a whole number from 1 to 500."),
        ("limit=-1", "limit", "must be a whole number from 1 to 500."),
        ("limit=1.5", "limit", "must be a whole number from 1 to 500."),
        ("limit=ten", "limit", "must be a whole number from 1 to 500."),
        ("limit=" + "9" * 400, "limit", None),
        ("cursor=abc", "cursor", "is not a cursor this service gave"),
        (
            "cursor=YWZ0ZXI6MDAx",
            "cursor",
            "is not a cursor this service gave",
        ),  # after:001, not as the service writes it
        ("cursor=YWZ0ZXI6LTE", "cursor", "is not a cursor this service gave"),  # after:-1
        ("cursor=%00%ff", "cursor", "is not a cursor this service gave"),
        ("cursor=" + "A" * 5000, "cursor", "is not a cursor this service gave"),
    ],
)
@pytest.mark.parametrize("path", sorted(LISTS))
def test_a_bad_limit_or_cursor_is_a_400_naming_it(client, auth, path, query, name, message):
    answer = client.get(f"{path}?{query}", headers=auth)
    body = answer.get_json()
    assert (answer.status_code, body["code"]) == (400, "invalid_parameter")
    assert body["detail"].startswith(f"Query parameter '{name}' ")
    if message:
        assert message in body["detail"]


@pytest.mark.parametrize(
    "url, detail",
    [
        (
            "/api/poc/corridors?from=USD&to=MXN&limit=5",
            "Query parameter 'limit' cannot be given with from or to: a page is of the whole list.",
        ),
        (
            "/api/poc/providers?corridor=USD_MXN&cursor=YWZ0ZXI6Mw",
            "Query parameter 'cursor' cannot be given with corridor: a page is of the whole list.",
        ),
    ],
)
def test_a_page_of_one_corridor_is_refused(client, url, detail):
    answer = client.get(url)
    assert (answer.status_code, answer.get_json()["detail"]) == (400, detail)


def test_limit_alone_does_not_ask_for_the_one_corridor_parameters(client):
    assert client.get("/api/poc/providers?limit=2").status_code == 200
    assert client.get("/api/poc/corridors?limit=2").status_code == 200
    assert client.get("/api/poc/providers?limit=2&amount=10").get_json()["code"] == "missing_parameter"


def test_a_kept_page_keeps_its_link_and_compresses(client, auth):
    first = client.get("/api/poc/full?limit=3")
    again = client.get("/api/poc/full?limit=3", headers={"Accept-Encoding": "gzip"})
    assert links(again) == links(first) and again.headers["Content-Encoding"] == "gzip"
    assert first.headers["Link"] == (f'</api/poc/full?limit=3>; rel="first", <{first.get_json()["next"]}>; rel="next"')
