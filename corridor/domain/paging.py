"""Lists in pages: a page starts after a position (the last corridor id the previous page held), not at an offset, so
that a cursor stays right when the data changes between two pages."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from corridor.domain.pricing import CorridorFigures

MAX_PAGE = 500  # corridors in one page at most


@dataclass(frozen=True, slots=True)
class Page:
    """Some of a list, by id, and the id the next page starts after; None when nothing remains, or when the list
    was asked for whole."""

    items: tuple[CorridorFigures, ...]
    last_id: int | None = None


def page_of(corridors: Sequence[CorridorFigures], after: int | None, limit: int | None) -> Page:
    """Corridors (by id) whose id is above `after`, at most `limit` of them; all of them when both are None."""
    rest = tuple(c for c in corridors if after is None or c.corridor.id > after)
    if limit is None or len(rest) <= limit:
        return Page(rest)
    return Page(rest[:limit], rest[limit - 1].corridor.id)
