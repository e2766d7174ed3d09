"""The project's own functions one request runs outside the pure domain, in the order first called: the short-path
target (docs/PERFORMANCE.md) is at most 10 with rate limits off and 14 with them on.

Usage: python -m bench.call_path [URL]   (default: every URL the target names, limits off then on)
"""

from __future__ import annotations

import os
import secrets
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOMAIN = ROOT / "corridor" / "domain"
OURS = (ROOT / "corridor", ROOT / "schemas")  # the service's own code; a venv inside the checkout is not
# the first request of a new URL: a one-off quote in each group, a repeated quote, a history range, the two lists
URLS = [
    "/api/providers?corridor=USD_MXN&amount=1234.56",
    "/api/poc/providers?corridor=USD_MXN&amount=2345.67",
    "/api/providers?corridor=USD_MXN",
    "/api/history?from=USD&to=MXN&start=2026-01-01&end=2026-06-30",
    "/api/corridors",
    "/api/poc/corridors?from=USD&to=MXN",
    "/api/poc/corridors/1",
]


def project_calls(app, url: str, headers: dict[str, str]) -> list[str]:
    """`module.function` of every call into this repository's code outside corridor/domain during one GET."""
    seen: list[str] = []

    def profile(frame, event, arg):
        path = Path(frame.f_code.co_filename)
        if frame.f_code.co_name.startswith("<"):  # a comprehension or lambda: part of the function that holds it
            return
        if event == "call" and any(top in path.parents for top in OURS) and DOMAIN not in path.parents:
            name = f"{path.relative_to(ROOT).with_suffix('')}.{frame.f_code.co_qualname}".replace("/", ".")
            if name not in seen:
                seen.append(name)

    client = app.test_client()
    sys.setprofile(profile)
    try:
        response = client.get(url, headers=headers)
    finally:
        sys.setprofile(None)
    assert response.status_code == 200, response.get_data(as_text=True)
    return seen


def main() -> None:
    urls = sys.argv[1:] or URLS
    key = secrets.token_urlsafe(24)
    os.environ["API_KEYS"] = key
    sys.path.insert(0, str(ROOT))
    from app import create_app

    headers = {"Authorization": f"Bearer {key}"}
    for limits in ("off", "on"):
        app = create_app(
            {"RATE_LIMITS": limits, "RATE_LIMIT_API": "1000000/minute", "RATE_LIMIT_PUBLIC": "1000000/minute"}
        )
        # the process's first request opens the store of counts (and under `flask run` starts the refresher): once
        app.test_client().get("/api/poc/corridors/1", headers=headers)
        worst = 0
        for url in urls:
            for when in ("first request (built)", "repeated (kept)"):
                calls = project_calls(app, url, headers)
                worst = max(worst, len(calls))
                print(f"limits {limits}: GET {url}, {when}: {len(calls)} project functions outside corridor/domain")
                for name in calls:
                    print(f"  {name}")
        print(f"limits {limits}: at most {worst}\n")


if __name__ == "__main__":
    main()
