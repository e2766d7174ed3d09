"""The reference for people, `/api/docs/guide`: docs/API.md as a page, with the documents and pictures it links to."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from flask import Flask, Response, current_app, render_template, send_from_directory
from markdown_it import MarkdownIt
from werkzeug.exceptions import NotFound

# docs/ as the package carries it (links in a checkout, the files in an installed copy)
_FILES = Path(__file__).resolve().parent / "reference"
_DOCUMENTS = {"guide": "API.md", "DATA.md": "DATA.md", "OPERATIONS.md": "OPERATIONS.md",
              "PERFORMANCE.md": "PERFORMANCE.md"}
_POLICY = "default-src 'self'; frame-ancestors 'none'"
_markdown = MarkdownIt("commonmark", {"html": False}).enable("table")


def register_reference(app: Flask) -> None:
    """Serve API.md at /api/docs/guide, the documents it links to beside it, and their pictures."""
    app.add_url_rule("/api/docs/guide", view_func=reference_page, defaults={"name": "guide"})
    app.add_url_rule("/api/docs/<any(DATA.md, OPERATIONS.md, PERFORMANCE.md):name>", view_func=reference_page)
    app.add_url_rule("/api/docs/<name>.png", view_func=reference_picture)


def reference_page(name: str) -> Response:
    title, body = rendered(_DOCUMENTS[name])
    response = current_app.response_class(render_template("reference.html", title=title, body=body),
                                          mimetype="text/html")
    response.headers["Content-Security-Policy"] = _POLICY
    response.headers["Cache-Control"] = "public, max-age=3600"
    return response


def reference_picture(name: str) -> Response:
    if not (_FILES / f"{name}.png").is_file():
        raise NotFound()
    response = send_from_directory(_FILES, f"{name}.png")
    response.headers["Cache-Control"] = "public, max-age=3600"
    return response


@lru_cache(maxsize=len(_DOCUMENTS))
def rendered(filename: str) -> tuple[str, str]:
    """A document's first heading and its HTML, every heading with the id a link to it uses (GitHub's)."""
    tokens = _markdown.parse((_FILES / filename).read_text(encoding="utf-8"))
    for opening, inline in zip(tokens, tokens[1:]):
        if opening.type == "heading_open":
            opening.attrSet("id", slug(inline.content))
    html = _markdown.renderer.render(tokens, _markdown.options, {})
    # links to the other documents stay beside this one; API.md itself is the guide
    html = html.replace('href="API.md', 'href="guide')
    return next(t.content for t in tokens if t.type == "inline"), html


def slug(heading: str) -> str:
    """`Rate limits` → `rate-limits`, `The SDG 10.c benchmark` → `the-sdg-10c-benchmark`, as GitHub anchors them."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower().replace("`", "")).replace(" ", "-")
