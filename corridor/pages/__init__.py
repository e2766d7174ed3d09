"""What people see: the comparison page at `/`, and the documentation (Swagger UI and the reference)."""

from __future__ import annotations

from flask import Flask

from corridor.pages import comparison, docs


def register_pages(app: Flask) -> None:
    """The page and the docs."""
    for page in (comparison, docs):
        app.register_blueprint(page.bp)
