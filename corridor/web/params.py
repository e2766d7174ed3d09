"""Query strings loaded through the query schemas, failures reported in a fixed order."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, ValidationError
from werkzeug.datastructures import MultiDict

from corridor.web.errors import ApiError, shown


class QueryParser:
    """Loads a query with `schema`; the first failure answers, in the order the API documents."""

    # unknown or repeated (in the query's order), then missing or empty, then malformed (in the
    # schema's order); a schema's `required_if_any` names parameters required once any is given

    def __init__(self, schema: Schema) -> None:
        self.schema = schema
        self.fields = {field.data_key or name: field for name, field in schema.fields.items()}
        self.takes = ", ".join(f"'{key}'" for key in self.fields) or "no query parameters"
        self.required = frozenset(key for key, field in self.fields.items() if field.required)
        self.required_if_given = self.required | frozenset(getattr(schema, "required_if_any", ()))

    def __call__(self, args: MultiDict[str, str]) -> dict[str, Any]:
        """The loaded parameters by attribute name, or the first failure as a 400 ApiError."""
        given = {}
        for key, values in args.lists():
            if key not in self.fields:
                raise ApiError(400, "invalid_parameter", f"Unknown query parameter {shown(key)}; this endpoint takes {self.takes}.")
            if len(values) > 1:
                raise ApiError(400, "invalid_parameter", f"Query parameter {shown(key)} is given more than once; give it once.")
            given[key] = values[0]
        required = self.required_if_given if given else self.required
        for key, field in self.fields.items():
            if given.get(key) == "" or (key in required and key not in given):
                raise ApiError(400, "missing_parameter",
                               f"Query parameter '{key}' needs a value, for example {key}={field.metadata['example']}.")
        try:
            return self.schema.load(given)
        except ValidationError as err:
            key = next(key for key in self.fields if key in err.messages)
            raise ApiError(400, "invalid_parameter", f"Query parameter '{key}' {err.messages[key][0]}") from None
