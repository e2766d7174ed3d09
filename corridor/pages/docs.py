"""The documentation for people: Swagger UI at `/api/docs`, and docs/API.md with the documents it links to beside it."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import swagger_ui_bundle
from flask import redirect, render_template, url_for
from flask.typing import ResponseReturnValue
from markdown_it import MarkdownIt
from mdit_py_plugins.anchors import anchors_plugin
from werkzeug.exceptions import NotFound

from corridor.api.caching import static_file
from corridor.state.policy import Policy, PolicyBlueprint

POLICY = Policy()  # public pages, counted against the address's budget
bp = PolicyBlueprint("docs", __name__, url_prefix="/api", template_folder="templates", policy=POLICY)

_ASSETS = Path(__file__).resolve().parent / "assets"
_OWN_FILES = {"docs.js", "docs.css"}
_SWAGGER_FILES = {"swagger-ui.css", "swagger-ui-bundle.js", "favicon-32x32.png", "favicon-16x16.png"}
_CACHED = "public, max-age=3600"
# Swagger UI styles inline; no framing (default-src does not cover it)
_PAGE_POLICY = "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'"
_REFERENCE_POLICY = "default-src 'self'; frame-ancestors 'none'"
# docs/ as the package carries it (links in a checkout, the files in an installed copy)
PICTURES = Path(__file__).resolve().parent / "reference"
DOCUMENTS = {"guide": "API.md", **{name: name for name in ("DATA.md", "OPERATIONS.md", "PERFORMANCE.md")}}
# GitHub's anchors (`Rate limits` → `rate-limits`), so that links written for GitHub work here too
_markdown = MarkdownIt("commonmark", {"html": False}).enable("table").use(anchors_plugin, max_level=6)


@bp.get("/docs")
def page() -> ResponseReturnValue:
    """Swagger UI on the document, with nothing loaded from anywhere but this app."""
    return render_template("docs.html"), {"Content-Security-Policy": _PAGE_POLICY, "Cache-Control": _CACHED}


@bp.get("")
def to_docs() -> ResponseReturnValue:
    """A newcomer at /api is sent to the docs page (302: /api may one day answer itself)."""
    return redirect(url_for(".page"), 302), {"Cache-Control": "no-cache"}


@bp.get("/docs/assets/<name>")
def asset(name: str) -> ResponseReturnValue:
    """Swagger UI's files from the installed swagger-ui-bundle package, and the page's own script and style."""
    if name not in _OWN_FILES | _SWAGGER_FILES:
        raise NotFound()
    return static_file(_ASSETS if name in _OWN_FILES else swagger_ui_bundle.swagger_ui_path, name, _CACHED)


@bp.get("/docs/guide", defaults={"name": "guide"})
@bp.get("/docs/<any(DATA.md, OPERATIONS.md, PERFORMANCE.md):name>")
def reference(name: str) -> ResponseReturnValue:
    """docs/API.md at /api/docs/guide, and the documents it links to beside it."""
    title, body = rendered(DOCUMENTS[name])
    html = render_template("reference.html", title=title, body=body)
    return html, {"Content-Security-Policy": _REFERENCE_POLICY, "Cache-Control": _CACHED}


@bp.get("/docs/<name>.png")
def picture(name: str) -> ResponseReturnValue:
    return static_file(PICTURES, f"{name}.png", _CACHED)


@lru_cache(maxsize=len(DOCUMENTS))
def rendered(filename: str) -> tuple[str, str]:
    """A document's first heading and its HTML."""
    tokens = _markdown.parse((PICTURES / filename).read_text(encoding="utf-8"))
    _label_cells(tokens)
    html = _markdown.renderer.render(tokens, _markdown.options, {})
    # links to the other documents stay beside this one; API.md itself is the guide
    html = html.replace('href="API.md', 'href="guide')
    return next(t.content for t in tokens if t.type == "inline"), html


def _label_cells(tokens: list) -> None:
    """Give each table cell its column's heading as `data-label`, which a phone shows before it (page.css)."""
    headings: list[str] = []
    column = 0
    for token, following in zip(tokens, tokens[1:], strict=False):
        if token.type == "thead_open":
            headings = []
        elif token.type == "th_open":
            headings.append(
                "".join(child.content for child in following.children or [] if child.type in ("text", "code_inline"))
            )
        elif token.type == "tr_open":
            column = 0
        elif token.type == "td_open":
            if column < len(headings) and headings[column]:
                token.attrSet("data-label", headings[column])
            column += 1
