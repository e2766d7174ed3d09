"""Query-string parsing through marshmallow schemas, in the order SPEC §5 sets."""

from __future__ import annotations

from typing import Any

from flask import request
from marshmallow import Schema, ValidationError, missing

from corridor.errors import ApiError


def shown(name: str, limit: int = 40) -> str:
    """A client-sent name made safe to quote back: printable and short."""
    clean = "".join(c if c.isprintable() else "?" for c in name[:limit])
    return f"'{clean}…'" if len(name) > limit else f"'{clean}'"


def parse_query(schema: Schema) -> dict[str, Any]:
    """Unknown or repeated → missing or empty → malformed, the first failure answering 400.

    A schema's `required_if_any` names parameters that become required once any is given.
    """
    args = request.args
    fields = {field.data_key or name: field for name, field in schema.fields.items()}
    for name in args:
        if name not in fields:
            takes = ", ".join(f"'{f}'" for f in fields) or "no query parameters"
            raise ApiError(400, "invalid_parameter", f"Unknown query parameter {shown(name)}; this endpoint takes {takes}.")
        if len(args.getlist(name)) > 1:
            raise ApiError(400, "invalid_parameter", f"Query parameter {shown(name)} is given more than once; give it once.")
    required = {name for name, field in fields.items() if field.required}
    if args:
        required.update(getattr(schema, "required_if_any", ()))
    for name, field in fields.items():
        if args.get(name) == "" or (name in required and name not in args):
            raise ApiError(
                400, "missing_parameter",
                f"Query parameter '{name}' needs a value, for example {name}={field.metadata['example']}.",
            )
    if not args and not any(field.load_default is not missing for field in fields.values()):
        return {}  # nothing to load: skip marshmallow on the commonest request, the bare URL
    try:
        return schema.load(args.to_dict())
    except ValidationError as err:
        name, messages = next(iter(err.messages.items()))
        raise ApiError(400, "invalid_parameter", f"Query parameter '{name}' {messages[0]}") from None
