"""The JSON API: Group A and Group B (one blueprint each), the problem details every error is answered with, and the
OpenAPI document written from both."""

from __future__ import annotations

from flask import Flask

from corridor.api import group_a, group_b
from corridor.api.errors import register_error_handlers
from corridor.api.openapi import build_api, serve_document


def register_api(app: Flask) -> None:
    """Both groups, the error handlers, the document."""
    api = build_api(app, group_a.bp, group_b.bp)
    for group in (group_a.bp, group_b.bp):
        api.register_blueprint(group)
    register_error_handlers(app)
    serve_document(app, api)
