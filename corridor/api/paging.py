"""Lists of corridors by pages (RFC 8288 links, as GitHub's API gives them): `limit` corridors after the `cursor` the
previous page gave, a `Link` header to the first and the next page, and Group B's `next`."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple
from urllib.parse import urlencode

from flask import request

from corridor.domain.paging import corridor_id, page_of
from schemas.fields import cursor_for


class Listing(NamedTuple):
    """A page of corridors as Group B dumps it: the corridors, the next page's URL (None on the last page or a whole
    list), and the data's date (which /full shows)."""

    items: tuple
    next: str | None
    updated: Any


def listing(
    items: Sequence,
    limit: int | None,
    cursor: int | None,
    updated: Any,
    position: Callable[[Any], int] = corridor_id,
    filters: Mapping[str, str | None] | None = None,
) -> tuple[Listing, dict[str, str]]:
    """`items` (in `position` order) after `cursor`, at most `limit` (all of them without either), and the page's Link
    header; the links keep the `filters` the list was narrowed by (as loaded: every spelling of a query links alike)."""
    page, last_id = page_of(items, cursor, limit, position)
    if limit is None:  # a whole list, or the rest after a cursor: no links
        return Listing(page, None, updated), {}
    kept = urlencode([(name, value) for name, value in (filters or {}).items() if value is not None])
    # relative to the service: a kept answer is served to every host name the service answers to
    here = f"{request.script_root}{request.path}?{kept + '&' if kept else ''}limit={limit}"
    following = None if last_id is None else f"{here}&cursor={cursor_for(last_id)}"
    links = f'<{here}>; rel="first"' + ("" if following is None else f', <{following}>; rel="next"')
    return Listing(page, following, updated), {"Link": links}
