"""Routing a request for a path the app serves most by one dict lookup: Werkzeug's own answer.

Flask binds the URL map to every request's host and scheme and then walks Werkzeug's state
machine to find the rule: ~12 µs a request here, for a map that never changes. Werkzeug's match
of each served path (every path without arguments, and the canonical URLs') with each method is
taken once, when the app starts serving. Any other request (an unknown or unusual path, a
method the path does not allow, a WebSocket upgrade, a Host header the map has not yet been bound
to, since only binding finds one Werkzeug refuses) is bound and matched by Werkzeug as before,
and so is anything else the adapter is asked for (building a URL, the methods a path allows).
`tests/test_routing.py` holds the two equal.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable

from werkzeug.exceptions import HTTPException
from werkzeug.routing import Map, MapAdapter, Rule

_HOSTS_LIMIT = 64  # Host values remembered as bindable per worker; a client sends one of a few


class RouteTable:
    """Werkzeug's match of each served path with each method the map knows, where it names a rule,
    and the Host values Werkzeug has bound the map to for this app (a Host it cannot bind is a 400,
    BadHost, which only binding finds)."""

    def __init__(self, url_map: Map, paths: Iterable[str]) -> None:
        adapter = url_map.bind("localhost")
        methods = sorted({method for rule in url_map.iter_rules() for method in rule.methods or ()})
        self.routes: dict[tuple[str, str], tuple[Rule, dict[str, Any]]] = {}
        for path in paths:
            for method in methods:
                try:
                    self.routes[path, method] = adapter.match(path, method, return_rule=True)
                except HTTPException:  # not found, not allowed, or a redirect: Werkzeug says so per request
                    pass
        self.hosts: set[str] = set()

    def bound_to(self, host: str | None) -> None:
        """Remember that the map bound to `host`."""
        if host is not None and len(self.hosts) < _HOSTS_LIMIT:
            self.hosts.add(host)


class LazyAdapter:
    """A request's URL adapter: its rule from the table when there is one, Werkzeug's otherwise.

    Werkzeug's adapter is bound on first need: to match a request the table does not hold, to
    build a URL, or to list the methods a path allows.
    """

    __slots__ = ("_host", "_key", "_table", "_bind", "_bound")

    def __init__(self, environ: dict, table: RouteTable, bind: Callable[[], MapAdapter]) -> None:
        self._host = environ.get("HTTP_HOST")
        # a Host not yet bound to may be one Werkzeug refuses; a WebSocket upgrade turns the scheme
        # to ws(s), which Werkzeug matches differently: Werkzeug decides both
        known = self._host in table.hosts and "HTTP_UPGRADE" not in environ
        self._key = (environ.get("PATH_INFO"), environ["REQUEST_METHOD"]) if known else None
        self._table = table
        self._bind = bind
        self._bound: MapAdapter | None = None

    @property
    def bound(self) -> MapAdapter:
        """Werkzeug's adapter for this request, as Flask binds it."""
        if self._bound is None:
            self._bound = self._bind()
            self._table.bound_to(self._host)
        return self._bound

    def match(self, path_info: str | None = None, method: str | None = None, return_rule: bool = False,
              query_args: Any = None, websocket: bool | None = None) -> tuple[Any, dict[str, Any]]:
        """The request's own rule from the table (Flask's call), else Werkzeug's match."""
        if return_rule and path_info is None and method is None and websocket is None:
            matched = self._table.routes.get(self._key)
            if matched is not None:
                return matched[0], dict(matched[1])  # Flask's url_value_preprocessors may change it
        return self.bound.match(path_info, method, return_rule, query_args, websocket)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.bound, name)
