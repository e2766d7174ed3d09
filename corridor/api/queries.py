"""Query strings loaded by each endpoint's schema (in the parser flask-smorest calls), failures in the API's order."""

from __future__ import annotations

from typing import Any

from flask import g
from marshmallow import Schema, ValidationError
from marshmallow.fields import Field
from webargs.flaskparser import FlaskParser

from corridor.errors import ApiError, quoted
from corridor.state import current_service
from schemas.query import PAGE_PARAMETERS, HistoryQuery


class QueryParser(FlaskParser):
    """The parser flask-smorest's `arguments` calls, for query strings: unknown or repeated parameters first, then
    missing or empty, then malformed; each failure a 400 ApiError."""

    DEFAULT_VALIDATION_STATUS = 400  # what flask-smorest documents for a query that does not load

    def __init__(self) -> None:
        super().__init__()
        # by schema, worked out on its first query
        self.by_name: dict[Schema, dict[str, Field]] = {}
        self.upper_cased: dict[Schema, list[str]] = {}

    def parse(self, argmap: Any, req: Any = None, **kwargs: Any) -> Any:
        """The query loaded by `schema` against the data being served, or its first failure as a 400."""
        # unknown or repeated in the query's order, the others in the schema's; a schema's
        # `required_if_any` names parameters required once any is given
        schema: Schema = argmap  # flask-smorest's `arguments` passes a schema instance
        fields = self.by_name.get(schema)
        if fields is None:  # the schema's parameters by name, and those upper-cased once loaded
            # in this order: a thread that finds the schema's fields (its first query on two threads) finds both
            self.upper_cased[schema] = [
                name for name, field in schema.fields.items() if field.metadata.get("upper_cased")
            ]
            fields = self.by_name[schema] = {field.data_key or name: field for name, field in schema.fields.items()}
        given = {}
        for key, values in (req or self.get_default_request()).args.lists():
            if key not in fields:
                takes = ", ".join(f"'{name}'" for name in fields) or "no query parameters"
                raise ApiError(
                    400, "invalid_parameter", f"Unknown query parameter {quoted(key)}; this endpoint takes {takes}."
                )
            if len(values) > 1:
                raise ApiError(
                    400, "invalid_parameter", f"Query parameter {quoted(key)} is given more than once; give it once."
                )
            given[key] = values[0]
        needed = getattr(schema, "required_if_any", ()) if any(key not in PAGE_PARAMETERS for key in given) else ()
        for key, field in fields.items():
            if given.get(key) == "" or (key not in given and (field.required or key in needed)):
                # `quoted_example`: of a parameter the document gives none, as it excludes another (schemas/query.py)
                shown_example = field.metadata.get("example", field.metadata.get("quoted_example"))
                example = f", for example {key}={shown_example}" if shown_example is not None else ""
                raise ApiError(400, "missing_parameter", f"Query parameter '{key}' needs a value{example}.")
        try:
            loaded = schema.load(given)
        except ValidationError as error:  # the first malformed parameter, in the schema's order
            messages = error.normalized_messages()
            key = next(key for key in fields if key in messages)
            raise ApiError(400, "invalid_parameter", f"Query parameter '{key}' {messages[key][0]}") from None
        for name in self.upper_cased[schema]:  # a code given in any case, as the service writes it
            if name in loaded:
                loaded[name] = loaded[name].upper()
        first, last = getattr(schema, "in_order", ("", ""))  # once each is well formed
        if first in loaded and last in loaded and loaded[first] > loaded[last]:
            raise ApiError(
                400,
                "invalid_parameter",
                f"Query parameter '{first}' is after {last}; give a {first} on or before the {last}.",
            )
        for key, others, rule in getattr(schema, "exclusive", ()):
            if key in given and any(other in given for other in others):
                raise ApiError(400, "invalid_parameter", f"Query parameter '{key}' {rule}")
        if isinstance(schema, HistoryQuery) and "date" not in loaded:
            # a range with its defaults, cut to the days served: equal ranges load equal (and are kept once)
            loaded["start"], loaded["end"] = g.setdefault("data", current_service().data).catalog.history.span(
                loaded["from_currency"], loaded["to_currency"], loaded.get("start"), loaded.get("end")
            )
        return loaded
