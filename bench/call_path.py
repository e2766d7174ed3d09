"""The project's own functions one request runs outside the pure domain, in the order first called.

Usage: python -m bench.call_path [URL]   (default: a quote at an amount, built afresh, then served again)
"""

from __future__ import annotations

import os
import secrets
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOMAIN = ROOT / "corridor" / "domain"


def project_calls(app, url: str, headers: dict[str, str]) -> list[str]:
    """`module.function` of every call into this repository's code outside corridor/domain during one GET."""
    seen: list[str] = []

    def profile(frame, event, arg):
        path = Path(frame.f_code.co_filename)
        if frame.f_code.co_name.startswith("<"):  # a comprehension or lambda: part of the function that holds it
            return
        if event == "call" and ROOT in path.parents and DOMAIN not in path.parents and ".venv" not in path.parts:
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
    url = sys.argv[1] if len(sys.argv) > 1 else "/api/providers?corridor=USD_MXN&amount=1000"
    key = secrets.token_urlsafe(24)
    os.environ["API_KEYS"] = key
    sys.path.insert(0, str(ROOT))
    from app import create_app

    app = create_app()
    headers = {"Authorization": f"Bearer {key}"}
    for when in ("first request (built)", "repeated (kept)"):
        calls = project_calls(app, url, headers)
        print(f"GET {url}, {when}: {len(calls)} project functions outside corridor/domain")
        for name in calls:
            print(f"  {name}")


if __name__ == "__main__":
    main()
