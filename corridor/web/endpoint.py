"""`@endpoint`: what a view takes and gives, for serving and for the OpenAPI document."""

# A view gets the catalog and its loaded query (and any path values) and returns its response
# schema's dump; the body is kept unless the view is not `cached` or the query is a `one_off`.

from __future__ import annotations

from dataclasses import dataclass, field
from functools import wraps
from typing import Any, Callable, Iterable

from flask import Request, request
from marshmallow import Schema

from corridor.domain.catalog import Catalog
from corridor.web.http import Body, LastModified, json_response, make_body
from corridor.web.memo import SharedLRU
from corridor.web.params import QueryParser
from corridor.web.service import DataVersion, cache_key, current_service
from schemas.query import NoQuery

View = Callable[..., Any]
QUERY_MEMO, QUERY_MEMO_LENGTH = 1024, 128  # loaded queries remembered per endpoint, and the longest


@dataclass(frozen=True)
class Operation:
    """A view with what it takes and gives, for serving and for the OpenAPI document."""

    view: View
    name: str  # the view's module and name: unique, and known without asking the request
    response: Schema | tuple[Schema, ...]
    query: Schema
    parse: QueryParser
    errors: tuple[int, ...]
    cache_control: str
    cached: bool
    variants: Callable[[Catalog], Iterable[dict[str, Any]]]
    one_off: Callable[[dict[str, Any]], bool]
    modified: Callable[[DataVersion], LastModified]
    csv: Callable[[Any, bool], Body] | None  # the body for `format=csv`, from the view's dump
    # loading a query through marshmallow costs more than serving a kept body, and clients repeat
    # a few short spellings: those are remembered, up to QUERY_MEMO of them
    loaded: SharedLRU[dict[str, Any]] = field(default_factory=lambda: SharedLRU(QUERY_MEMO))

    def load(self, req: Request) -> dict[str, Any]:
        """The request's loaded query (ApiError if it does not load)."""
        query_string = req.query_string
        loaded = self.loaded.get(query_string)
        if loaded is None:
            loaded = self.parse(req.args)
            if len(query_string) <= QUERY_MEMO_LENGTH and not self.one_off(loaded):
                self.loaded.put(query_string, loaded)
        return loaded

    def keeps(self, query: dict[str, Any]) -> bool:
        """Whether the body for `query` is kept: what is not is sent as it is, uncompressed."""
        return self.cached and not self.one_off(query)

    def body(self, catalog: Catalog, query: dict[str, Any], path: dict[str, Any]) -> Body:
        """The serialised response to `query` at `path`, with a gzip copy if it is kept."""
        payload = self.view(catalog, query, **path)
        if self.csv is not None and query.get("format") == "csv":
            return self.csv(payload, self.keeps(query))
        return make_body(payload, compress=self.keeps(query))


def endpoint(
    response: Schema | tuple[Schema, ...],
    *,
    cache_control: str,
    query: Schema | None = None,
    errors: tuple[int, ...] = (),
    cached: bool = True,
    variants: Callable[[Catalog], Iterable[dict[str, Any]]] = lambda catalog: [{}],
    one_off: Callable[[dict[str, Any]], bool] = lambda query: False,
    modified: Callable[[DataVersion], LastModified] = lambda data: data.modified,
    csv: Callable[[Any, bool], Body] | None = None,
) -> Callable[[View], View]:
    """Declare a view's response schemas, query schema, errors, caching, date and other format."""
    # `cached` bodies are kept (not those `one_off` says are, an arbitrary amount); `variants`
    # lists the URL values of the bodies built with the data

    def decorate(view: View) -> View:
        query_schema = query or NoQuery()
        operation = Operation(view, f"{view.__module__}.{view.__name__}", response, query_schema,
                              QueryParser(query_schema), (400, *errors), cache_control, cached, variants, one_off,
                              modified, csv)

        @wraps(view)
        def serve(**path: Any) -> Any:
            data = current_service().data  # once: a refresh swaps it whole
            loaded = operation.load(request)
            if not operation.cached:
                return json_response(operation.body(data.catalog, loaded, path), cache_control, etag=False)
            key = cache_key(operation.name, path, loaded)
            body = data.bodies.get(key)
            if body is None:
                body = operation.body(data.catalog, loaded, path)
                if operation.keeps(loaded):
                    data.bodies.put(key, body)
            return json_response(body, cache_control, modified=operation.modified(data))

        serve.operation = operation
        return serve

    return decorate

