"""The floor: a bare Flask app answering each benchmarked URL with the service's exact bytes."""

import json
import os
import re

from flask import Flask, Response, request

_AMOUNT = re.compile(r"amount=[0-9.]+")


def create_baseline() -> Flask:
    """Bodies come from BENCH_BODIES, a JSON file of {url: body text} captured from the service."""
    with open(os.environ["BENCH_BODIES"], encoding="utf-8") as handle:
        bodies = {url: text.encode() for url, text in json.load(handle).items()}
    app = Flask(__name__)

    @app.route("/<path:path>")
    def serve(path: str) -> Response:
        url = request.full_path.rstrip("?")
        body = bodies.get(url)
        if body is None:  # a random amount, benchmarked as `amount=*`: the body captured for 1000
            body = bodies[_AMOUNT.sub("amount=*", url)]
        return Response(body, mimetype="application/json")

    return app


app = create_baseline() if "BENCH_BODIES" in os.environ else None
