"""What `make run` says before gunicorn starts: the development key it made, or that API_KEYS holds the keys, and
where to look; with LOG_FORMAT=json each line one JSON object, as the service logs them."""

from __future__ import annotations

import argparse
import os

from corridor.serving.logs import json_line


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--made-key", action="store_true", help="API_KEYS holds a key made for this run: show it")
    args = parser.parse_args()
    base, lines = f"http://127.0.0.1:{args.port}", ["Using the keys in API_KEYS."]
    if args.made_key:
        key = os.environ["API_KEYS"]
        lines = [f"Development API key: {key}", f"Try: curl -H 'Authorization: Bearer {key}' {base}/api/corridors"]
    lines.append(f"Docs: {base}/api/docs  Your own keys: {base}/account/signup")
    as_json = os.environ.get("LOG_FORMAT", "text").strip().lower() == "json"
    for line in lines:
        print(json_line(line, "corridor.run") if as_json else line, flush=True)


if __name__ == "__main__":
    main()
