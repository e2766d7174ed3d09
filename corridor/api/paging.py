"""Lists of corridors by pages (RFC 8288 links, as GitHub's API gives them): `limit` corridors after the `cursor` the
previous page gave, a `Link` header to the first and the next page, and Group B's `next`."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple
from urllib.parse import urlencode

from flask import request

from corridor.domain.catalog import Catalog
from corridor.domain.paging import Page, corridor_id, page_of
from schemas.fields import cursor_for


class Listing(NamedTuple):
    """A page of corridors as Group B dumps it: the corridors, the next page's URL (None on the last page or a whole
    list), and the data's date (which /full shows)."""

    items: tuple
    next: str | None
    updated: Any


def listing(catalog: Catalog, limit: int | None, cursor: int | None) -> tuple[Listing, dict[str, str]]:
    """The active corridors after `cursor`, at most `limit` (all of them without either), and the page's Link
    header."""
    return listing_of(catalog.corridors, limit, cursor, catalog.dataset.as_of)


def listing_of(
    items: Sequence,
    limit: int | None,
    cursor: int | None,
    updated: Any,
    position: Callable[[Any], int] = corridor_id,
    filters: Mapping[str, str | None] | None = None,
) -> tuple[Listing, dict[str, str]]:
    """`items` (in `position` order) after `cursor`, at most `limit`, and the page's Link header; the links keep the
    `filters` the list was narrowed by (as loaded: every spelling of a query links alike)."""
    page = page_of(items, cursor, limit, position)
    if limit is None:  # a whole list, or the rest after a cursor: no links
        return Listing(page.items, None, updated), {}
    kept = urlencode([(name, value) for name, value in (filters or {}).items() if value is not None])
    here = f"{_here()}?{kept + '&' if kept else ''}"
    return Listing(page.items, next_url(page, limit, here), updated), links(page, limit, here)


def next_url(page: Page, limit: int | None, here: str | None = None) -> str | None:
    """The path and query of the page after `page`, relative to the service (`here`: the list's path and query, up
    to its page); None if none is left."""
    if page.last_id is None or limit is None:
        return None
    return f"{here or _here() + '?'}limit={limit}&cursor={cursor_for(page.last_id)}"


def links(page: Page, limit: int | None, here: str | None = None) -> dict[str, str]:
    """The `Link` header of a page (to the first, and to the next while more remain); none for a whole list."""
    if limit is None:
        return {}
    here = here or f"{_here()}?"
    found = [f'<{here}limit={limit}>; rel="first"']
    if (following := next_url(page, limit, here)) is not None:
        found.append(f'<{following}>; rel="next"')
    return {"Link": ", ".join(found)}


def _here() -> str:
    # relative to the service: a kept answer is served to every host name the service answers to
    return f"{request.script_root}{request.path}"
