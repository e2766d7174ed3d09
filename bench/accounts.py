"""An account key for the benchmark, made as a holder makes one: sign up, then make a key on the account page."""

from __future__ import annotations

import http.cookiejar
import re
import secrets
import urllib.parse
import urllib.request

_TOKEN = re.compile(r'name="csrf_token" type="hidden" value="([^"]+)"')
_NEW_KEY = re.compile(r'<code id="new-key">([^<]+)</code>')


def account_key(base: str) -> str:
    """A new account on the server at `base`, and a new key of it."""
    browser = urllib.request.build_opener(
        urllib.request.ProxyHandler({}), urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
    )

    def submit(page: str, action: str, **fields: str) -> str:
        with browser.open(base + page, timeout=10) as response:
            token = _TOKEN.search(response.read().decode())[1]
        data = urllib.parse.urlencode({"csrf_token": token, **fields}).encode()
        with browser.open(base + action, data=data, timeout=10) as response:  # redirects followed
            return response.read().decode()

    submit(
        "/account/signup",
        "/account/signup",
        email=f"bench-{secrets.token_hex(4)}@example.com",
        password=secrets.token_urlsafe(16),
    )
    return _NEW_KEY.search(submit("/account", "/account/keys", name="benchmark", expires_days="30"))[1]
