"""Swagger UI's files for the docs page flask-smorest serves at /api/docs, and /api leading to it."""

from __future__ import annotations

from pathlib import Path

import swagger_ui_bundle
from flask import Flask, Response, redirect, send_from_directory, url_for
from werkzeug.exceptions import NotFound

_ASSETS = Path(__file__).resolve().parent / "assets"
_SWAGGER_FILES = {"swagger-ui.css", "swagger-ui-bundle.js", "favicon-32x32.png", "favicon-16x16.png"}
_ASSET_CACHE = "public, max-age=3600"


def register_docs(app: Flask) -> None:
    """Serve Swagger UI's files and the page's script; send newcomers at /api to the docs."""
    app.add_url_rule("/api/docs/assets/<name>", view_func=docs_asset)
    app.add_url_rule("/api", endpoint="api_root", view_func=to_docs)


def to_docs() -> Response:
    """A newcomer at /api is sent to the docs page (302: /api may one day answer itself)."""
    response = redirect(url_for("api-docs.openapi_swagger_ui"), 302)
    response.headers["Cache-Control"] = "no-cache"
    return response


def docs_asset(name: str) -> Response:
    """Swagger UI's files from the installed swagger-ui-bundle package, and the page's own script."""
    if name == "docs.js":
        response = send_from_directory(_ASSETS, name)
    elif name in _SWAGGER_FILES:
        response = send_from_directory(swagger_ui_bundle.swagger_ui_path, name)
    else:
        raise NotFound()
    response.headers["Cache-Control"] = _ASSET_CACHE
    return response
