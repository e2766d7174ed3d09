"""Making a key answers with a redirect to the page that shows it once: reloading that page makes nothing."""

import pytest
from holders import KEY_FORMAT, NEW_KEY, query, signed_up

pytestmark = pytest.mark.usefixtures("quick_hashes")


@pytest.mark.parametrize("reloads", [1, 3])
def test_reloading_the_new_key_page_makes_no_key_and_shows_it_no_more(holder, database_url, reloads):
    signed_up(holder)
    made = holder.submit("/account", "/account/keys", name="checkout server", expires_days="30")
    assert (made.status_code, made.headers["Location"]) == (303, "/account")
    assert made.headers["Cache-Control"] == "no-store"
    shown = holder.get("/account")
    assert shown.status_code == 200 and shown.headers["Cache-Control"] == "no-store"
    key = NEW_KEY.search(shown.text)[1]
    assert KEY_FORMAT.fullmatch(key)
    for _ in range(reloads):
        again = holder.get("/account")
        assert again.status_code == 200
        assert key not in again.text and 'id="new-key"' not in again.text
    assert query(database_url, "SELECT name FROM api_keys") == [("checkout server",)]


def test_a_key_made_after_another_is_the_one_shown(holder, database_url):
    signed_up(holder)
    keys = []
    for name in ("first", "second"):
        assert holder.submit("/account", "/account/keys", name=name, expires_days="none").status_code == 303
        keys.append(NEW_KEY.search(holder.get("/account").text)[1])
    assert keys[0] != keys[1]
    assert query(database_url, "SELECT count(*) FROM api_keys") == [(2,)]
