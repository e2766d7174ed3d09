"""`@endpoint`: a view's query and response schemas, its caching, and its OpenAPI description.

A view returns the payload its response schema dumped. Responses that depend only on the URL and
the immutable data are serialised once per worker and reused: later requests for the same URL do
no marshmallow work, no JSON encoding and no hashing.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import wraps
from typing import Any, Callable, Iterable

from flask import Flask, request, url_for
from marshmallow import Schema

from corridor.catalog import Catalog
from corridor.encoding import json_bytes
from corridor.http import Body, json_response, make_body
from corridor.params import QueryParser
from corridor.state import catalog, response_cache
from schemas.query import NoQuery

CACHE_LIMIT = 4096  # URLs per worker: canonical ones are built at start-up, others on first use
Variants = Callable[[Catalog], Iterable[dict[str, Any]]]


@dataclass(frozen=True)
class Operation:
    """What a view takes and gives, for serving and for the OpenAPI document."""

    response: Schema | tuple[Schema, ...]
    query: Schema
    errors: tuple[int, ...]
    cache_control: str
    static: bool
    variants: Variants
    reuse: Callable[[dict], bool]
    parse: QueryParser


def endpoint(
    response: Schema | tuple[Schema, ...],
    *,
    cache_control: str,
    query: Schema | None = None,
    errors: tuple[int, ...] = (),
    static: bool = True,
    variants: Variants = lambda catalog: [{}],
    reuse: Callable[[dict], bool] = lambda query: True,
) -> Callable:
    """Declare a view; `static` ones are cached by URL (unless `reuse(query)` says the query is a
    one-off, like an arbitrary amount), `variants` lists the URLs to pre-build."""
    query = query or NoQuery()
    operation = Operation(response, query, (400, *errors), cache_control, static, variants, reuse, QueryParser(query))

    def decorate(view: Callable) -> Callable:
        @wraps(view)
        def serve(**path: Any) -> Any:
            req = request._get_current_object()  # one proxy lookup, not one per attribute (corridor.state)
            if not operation.static:
                payload = view(operation.parse.request(req), **path)
                return json_response(Body(json_bytes(payload), ""), cache_control, etag=False)
            cache = response_cache()
            key = (req.path, req.query_string)
            body = cache.get(key)
            if body is None:
                query = operation.parse.request(req)
                body = make_body(view(query, **path))
                if len(cache) < CACHE_LIMIT and operation.reuse(query):
                    cache[key] = body
            return json_response(body, cache_control)

        serve.operation = operation
        return serve

    return decorate


def canonical_urls(app: Flask) -> list[str]:
    """The URL of every static response the data has: each path's variants, query included."""
    urls = []
    with app.test_request_context():
        for rule in app.url_map.iter_rules():
            operation = getattr(app.view_functions[rule.endpoint], "operation", None)
            if operation is not None and operation.static:
                urls.extend(url_for(rule.endpoint, **values) for values in operation.variants(catalog()))
    return urls


def prebuild_responses(app: Flask, urls: list[str]) -> None:
    """Serialise the static response of each of `urls` (the canonical ones), before serving."""
    for url in urls:
        # dispatch only: the key check of Group A guards serving, not building
        with app.test_request_context(url):
            app.dispatch_request()
