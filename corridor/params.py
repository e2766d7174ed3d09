"""Query-string parsing through marshmallow schemas, in the order SPEC §5 sets."""

from __future__ import annotations

import re
from typing import Any, Callable, Iterable

from marshmallow import Schema, ValidationError, missing
from werkzeug.datastructures import MultiDict

from corridor.errors import ApiError

Lists = Iterable[tuple[str, list[str]]]
_PLAIN_QUERY = re.compile(rb"[A-Za-z0-9._~=&-]*")  # nothing to decode: no %, no +
_LOADED_LIMIT = 1024  # remembered (parameter, text) loads per endpoint; amounts never repeat, the rest do


def query_lists(query_string: bytes, args: Callable[[], MultiDict[str, str]]) -> Lists:
    """The query's (name, values) pairs, first-seen order, as `args().lists()` gives them.

    A query with nothing to decode is split here: Werkzeug's parse (percent-decoding, then a
    MultiDict) cost as much as the rest of a one-off quote's parsing. Any other goes to `args`.
    """
    if not _PLAIN_QUERY.fullmatch(query_string):
        return args().lists()
    lists: dict[str, list[str]] = {}
    for part in query_string.decode("ascii").split("&"):
        if part:  # parse_qsl skips empty parts, keeps `name` without `=` as a blank value
            name, _, value = part.partition("=")
            if name in lists:
                lists[name].append(value)
            else:
                lists[name] = [value]
    return lists.items()


def shown(name: str, limit: int = 40) -> str:
    """A client-sent name made safe to quote back: printable and short."""
    clean = "".join(c if c.isprintable() else "?" for c in name[:limit])
    return f"'{clean}…'" if len(name) > limit else f"'{clean}'"


class QueryParser:
    """One query schema's parameters, checked unknown or repeated → missing or empty → malformed.

    Built once per endpoint. Each given parameter goes through its schema field's `deserialize`
    (type, pattern, validators, load default), which is what `schema.load` does for schemas that
    declare fields only, as the query schemas do, at a fraction of the cost; a test holds the two
    equal. A schema's `required_if_any` names parameters that become required once any is given.
    A field's load depends on its text alone, so loads are remembered (a corridor key repeats).
    """

    def __init__(self, schema: Schema) -> None:
        self.fields = {field.data_key or name: (field.attribute or name, field) for name, field in schema.fields.items()}
        self.takes = ", ".join(f"'{key}'" for key in self.fields) or "no query parameters"
        self.required = frozenset(key for key, (_, field) in self.fields.items() if field.required)
        self.required_if_given = self.required | frozenset(getattr(schema, "required_if_any", ()))
        self.defaults = [(key, name, field) for key, (name, field) in self.fields.items() if field.load_default is not missing]
        self._loaded: dict[tuple[str, str], Any] = {}

    def __call__(self, lists: Lists) -> dict[str, Any]:
        """The loaded parameters by attribute name, or the first failure as a 400 ApiError."""
        given = {}
        for key, values in lists:
            if key not in self.fields:
                raise ApiError(400, "invalid_parameter", f"Unknown query parameter {shown(key)}; this endpoint takes {self.takes}.")
            if len(values) > 1:
                raise ApiError(400, "invalid_parameter", f"Query parameter {shown(key)} is given more than once; give it once.")
            given[key] = values[0]
        required = self.required_if_given if given else self.required
        for key, (_, field) in self.fields.items():
            if given.get(key) == "" or (key in required and key not in given):
                raise ApiError(
                    400, "missing_parameter",
                    f"Query parameter '{key}' needs a value, for example {key}={field.metadata['example']}.",
                )
        loaded = {name: field.deserialize(missing, key, given) for key, name, field in self.defaults if key not in given}
        for key, (name, field) in self.fields.items():  # schema order: the first malformed one answers
            if key in given:
                loaded[name] = self._load(key, field, given)
        return loaded

    def request(self, req: Any) -> dict[str, Any]:
        """`self(...)` on a request's query string, split by `query_lists`."""
        return self(query_lists(req.query_string, lambda: req.args))

    def _load(self, key: str, field: Any, given: dict[str, str]) -> Any:
        remembered = self._loaded.get((key, given[key]), missing)
        if remembered is not missing:
            return remembered
        try:
            value = field.deserialize(given[key], key, given)
        except ValidationError as err:
            raise ApiError(400, "invalid_parameter", f"Query parameter '{key}' {err.messages[0]}") from None
        if len(self._loaded) >= _LOADED_LIMIT:
            self._loaded.clear()
        self._loaded[key, given[key]] = value
        return value
