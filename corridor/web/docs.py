"""`/api/openapi.json` and `/api/docs`: the contract and a page to try it, served offline."""

from __future__ import annotations

from pathlib import Path

import swagger_ui_bundle
from flask import Flask, Response, current_app, redirect, send_from_directory, url_for
from werkzeug.exceptions import NotFound

from corridor.web.http import json_response, make_body
from corridor.web.openapi import build_openapi

_ASSETS = Path(__file__).resolve().parent / "assets"
_SWAGGER_FILES = {"swagger-ui.css", "swagger-ui-bundle.js", "favicon-32x32.png", "favicon-16x16.png"}
_PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Corridor API: interactive docs</title>
<link rel="icon" type="image/png" href="{icon}">
<link rel="stylesheet" href="{css}">
</head>
<body>
<div id="swagger-ui"></div>
<script src="{js}"></script>
<script src="{init}" data-spec="{spec}"></script>
</body>
</html>
"""
# Swagger UI sets inline styles; nothing else may load from anywhere but here
_PAGE_POLICY = "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'"
_ASSET_CACHE = "public, max-age=3600"


def register_docs(app: Flask) -> None:
    """Build the OpenAPI document once from the registered routes and serve it with the page."""
    body = make_body(build_openapi(app))

    def openapi_json() -> Response:
        """The OpenAPI 3.0 document."""
        response = json_response(body, "public, max-age=60")
        response.headers["Access-Control-Allow-Origin"] = "*"
        return response

    app.add_url_rule("/api/openapi.json", view_func=openapi_json)
    app.add_url_rule("/api/docs", view_func=docs_page)
    app.add_url_rule("/api/docs/assets/<name>", view_func=docs_asset)
    app.add_url_rule("/api", endpoint="api_root", view_func=to_docs)


def to_docs() -> Response:
    """A newcomer at /api is sent to the docs page (302: /api may one day answer itself)."""
    response = redirect(url_for("docs_page"), 302)
    response.headers["Cache-Control"] = "no-cache"
    return response


def docs_page() -> Response:
    """Swagger UI on the served document, with its scripts and styles from this app."""
    page = _PAGE.format(
        icon=url_for("docs_asset", name="favicon-32x32.png"),
        css=url_for("docs_asset", name="swagger-ui.css"),
        js=url_for("docs_asset", name="swagger-ui-bundle.js"),
        init=url_for("docs_asset", name="docs.js"),
        spec=url_for("openapi_json"),
    )
    response = current_app.response_class(page, mimetype="text/html")
    response.headers["Content-Security-Policy"] = _PAGE_POLICY
    response.headers["Cache-Control"] = _ASSET_CACHE
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
