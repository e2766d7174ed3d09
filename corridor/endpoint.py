"""`@endpoint`: a view's query and response schemas, parsed at request time and documented once."""

from __future__ import annotations

from dataclasses import dataclass
from functools import wraps
from typing import Any, Callable

from marshmallow import Schema

from corridor.params import parse_query
from schemas.api import NoQuery


@dataclass(frozen=True)
class Operation:
    """What the OpenAPI document says about a view."""

    response: Schema | tuple[Schema, ...]
    query: Schema
    errors: tuple[int, ...]


def endpoint(response: Schema | tuple[Schema, ...], *, query: Schema | None = None, errors: tuple[int, ...] = ()) -> Callable:
    """Parse the query with `query` (none taken by default) and pass it to the view as `query`."""
    query = query or NoQuery()

    def decorate(view: Callable) -> Callable:
        @wraps(view)
        def parsed(**path: Any) -> Any:
            return view(parse_query(query), **path)

        parsed.operation = Operation(response, query, (400, *errors))  # any query can be unknown
        return parsed

    return decorate
