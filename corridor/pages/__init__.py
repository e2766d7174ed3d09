"""What people see: the comparison page at `/`, and the documentation (Swagger UI and the reference)."""

from __future__ import annotations

from flask import Flask

from corridor.pages import comparison, docs
from corridor.state import current_service


def register_pages(app: Flask) -> None:
    """The page and the docs, each with its declared policy."""
    for page in (comparison, docs):
        current_service(app).declare(page.bp, page.POLICY)
        app.register_blueprint(page.bp)
