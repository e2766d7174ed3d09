"""The field guide, generated from schema metadata so it cannot drift from what is served."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields

_JSON_TYPES = (
    (fields.Boolean, "boolean"),
    (fields.Integer, "integer"),
    (fields.Number, "number"),
    (fields.String, "string"),
    (fields.DateTime, "string"),  # Date too
    (fields.List, "array"),
    (fields.Nested, "object"),
    (fields.Mapping, "object"),  # keys that are data (kinds of firm, regions), not field names
)


def json_type(field: fields.Field) -> str:
    """The JSON type a field dumps to."""
    if isinstance(field, fields.Constant):
        return {bool: "boolean", int: "integer", float: "number", str: "string"}[type(field.constant)]
    if isinstance(field, fields.Nested) and field.many:
        return "array"
    return next((name for kind, name in _JSON_TYPES if isinstance(field, kind)), "any")


def example_of(field: fields.Field) -> Any:
    """The field's metadata example, or one built from the examples of the fields it nests."""
    if "example" in field.metadata:
        return field.metadata["example"]
    if isinstance(field, fields.List):
        return [example_of(field.inner)]
    if isinstance(field, fields.Nested):
        return {f.data_key or name: example_of(f) for name, f in field.schema.fields.items()}
    raise LookupError(f"field {field.name!r} has no example in its metadata")


def guide_entries(*schemas: Schema) -> list[dict[str, Any]]:
    """Every field name the schemas dump, nested ones included; one entry per name and meaning."""
    entries: dict[tuple[str, str], dict[str, Any]] = {}
    pending = list(schemas)
    while pending:
        for name, field in pending.pop(0).fields.items():
            entry = {
                "name": field.data_key or name,
                "type": json_type(field),
                "description": field.metadata["description"],
                "example": example_of(field),
            }
            entries.setdefault((entry["name"], entry["description"]), entry)
            inner = field.inner if isinstance(field, fields.List) else field
            if isinstance(inner, fields.Nested):
                pending.append(inner.schema)
    return sorted(entries.values(), key=lambda e: (e["name"].casefold(), e["name"], e["description"]))
