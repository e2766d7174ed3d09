"""`/api/openapi.json`, the document flask-smorest writes from the routes and schemas, and Swagger UI on it."""

from __future__ import annotations

from pathlib import Path

import swagger_ui_bundle
from flask import Flask, Response, current_app, redirect, render_template, send_from_directory, url_for
from flask_smorest import Api
from werkzeug.exceptions import NotFound
from werkzeug.http import generate_etag

from corridor.web.caching import conditional

_ASSETS = Path(__file__).resolve().parent / "assets"
_SWAGGER_FILES = {"swagger-ui.css", "swagger-ui-bundle.js", "favicon-32x32.png", "favicon-16x16.png"}
_ASSET_CACHE = "public, max-age=3600"
# Swagger UI styles inline; no framing (default-src does not cover it)
_PAGE_POLICY = "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'"


def register_docs(app: Flask, api: Api) -> None:
    """Serve `api`'s document (written once, now that every route is registered), the docs page and its files."""
    document = app.json.dumps(api.spec.to_dict()).encode() + b"\n"
    etag = generate_etag(document)

    def openapi_json() -> Response:
        """The OpenAPI document, public, with an ETag: a client that holds it gets a 304."""
        response = current_app.response_class(document, mimetype="application/json")
        response.set_etag(etag)
        response.headers["Cache-Control"] = "public, max-age=60"
        return conditional(response)

    app.add_url_rule("/api/openapi.json", view_func=openapi_json)
    app.add_url_rule("/api/docs", view_func=docs_page)
    app.add_url_rule("/api/docs/assets/<name>", view_func=docs_asset)
    app.add_url_rule("/api", endpoint="api_root", view_func=to_docs)


def docs_page() -> Response:
    """Swagger UI on the document, with nothing loaded from anywhere but this app."""
    response = current_app.response_class(render_template("docs.html"), mimetype="text/html")
    response.headers["Content-Security-Policy"] = _PAGE_POLICY
    response.headers["Cache-Control"] = _ASSET_CACHE
    return response


def to_docs() -> Response:
    """A newcomer at /api is sent to the docs page (302: /api may one day answer itself)."""
    response = redirect(url_for("docs_page"), 302)
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
