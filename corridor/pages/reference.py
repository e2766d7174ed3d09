"""docs/API.md and the documents it links to, rendered as HTML once, every heading with the anchor a link to it uses."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from markdown_it import MarkdownIt
from mdit_py_plugins.anchors import anchors_plugin

# docs/ as the package carries it (links in a checkout, the files in an installed copy)
PICTURES = Path(__file__).resolve().parent / "reference"
DOCUMENTS = {
    "guide": "API.md",
    "DATA.md": "DATA.md",
    "OPERATIONS.md": "OPERATIONS.md",
    "PERFORMANCE.md": "PERFORMANCE.md",
}
# GitHub's anchors (`Rate limits` → `rate-limits`), so that links written for GitHub work here too
_markdown = MarkdownIt("commonmark", {"html": False}).enable("table").use(anchors_plugin, max_level=6)


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
