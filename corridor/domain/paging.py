"""Lists in pages: a page starts after a position (the last corridor id the previous page held), not at an offset, so
that a cursor stays right when the data changes between two pages."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

MAX_PAGE = 500  # corridors in one page at most


def corridor_id(item: Any) -> int:
    return item.corridor.id


def page_of(
    items: Sequence, after: int | None, limit: int | None, position: Callable[[Any], int]
) -> tuple[tuple, int | None]:
    """The items (in `position` order) whose position is above `after`, at most `limit` (all when both are None), and
    the position the next page starts after (None: nothing remains, or the list is whole)."""
    rest = tuple(item for item in items if after is None or position(item) > after)
    if limit is None or len(rest) <= limit:
        return rest, None
    return rest[:limit], position(rest[limit - 1])
