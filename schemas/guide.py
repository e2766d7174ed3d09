"""The field guide, generated from schema metadata so it cannot drift from what is served."""

from __future__ import annotations

import functools
import re
from typing import Any

from marshmallow import Schema, fields

from schemas.camel import CamelCaseSchema
from schemas.fields import PercentText

_JSON_TYPES = (
    (PercentText, "string"),  # a number rounded, written as text
    (fields.Boolean, "boolean"),
    (fields.Integer, "integer"),
    (fields.Number, "number"),
    ((fields.String, fields.DateTime, fields.Date), "string"),  # a Date is not a DateTime since marshmallow 4
    (fields.List, "array"),
    ((fields.Nested, fields.Mapping), "object"),  # a Mapping's keys are data (kinds of firm, regions), not field names
)


def _nests_many(field: fields.Field) -> bool:
    return isinstance(field, fields.Nested) and (field.many or field.schema.many)


def json_type(field: fields.Field) -> str:
    """The JSON type a field dumps to; a Function's or a Constant's, unknown to marshmallow, is in its metadata."""
    if "type" in field.metadata:
        return field.metadata["type"]
    if _nests_many(field):
        return "array"
    return next((name for kind, name in _JSON_TYPES if isinstance(field, kind)), "any")


def example_of(field: fields.Field) -> Any:
    if "example" in field.metadata:
        return field.metadata["example"]
    if isinstance(field, fields.List):
        return [example_of(field.inner)]
    if isinstance(field, fields.Nested):
        example = {f.data_key or name: example_of(f) for name, f in field.schema.fields.items()}
        return [example] if _nests_many(field) else example
    raise LookupError(f"field {field.name!r} has no example in its metadata")


def object_of(schema: Schema, name: str) -> str:
    """The class that declares a field (or the Group B one that first inherits it), by its `guide_object`, or its name
    without Schema, Response or Entry (`CorridorListResponse`: corridor list)."""
    having = [cls for cls in type(schema).__mro__ if issubclass(cls, Schema) and name in _field_names(cls)]
    declaring = next((cls for cls in reversed(having) if issubclass(cls, CamelCaseSchema)), having[-1])
    if "guide_object" in vars(declaring):
        return vars(declaring)["guide_object"]
    words = re.findall(r"[A-Z][a-z]*", declaring.__name__)
    return " ".join(word.lower() for word in words if word not in ("Schema", "Response", "Entry"))


@functools.cache
def _field_names(cls: type[Schema]) -> frozenset[str]:
    """The fields a schema class declares or inherits, by marshmallow's public `declared_fields`."""
    return frozenset(cls().declared_fields)


def guide_entries(*schemas: Schema) -> list[dict[str, Any]]:
    """Every field the schemas dump, nested ones included, once per object (avgCost of a corridor, of the benchmark)."""
    entries: dict[tuple[str, str], dict[str, Any]] = {}
    pending = list(schemas)
    while pending:
        schema = pending.pop(0)
        for name, field in schema.fields.items():
            entry = {
                "name": field.data_key or name,
                "object": object_of(schema, name),
                "type": json_type(field),
                "description": field.metadata["description"],
                "example": example_of(field),
            }
            entries.setdefault((entry["object"], entry["name"]), entry)
            inner = field.inner if isinstance(field, fields.List) else field
            if isinstance(inner, fields.Nested):
                pending.append(inner.schema)
    return sorted(entries.values(), key=lambda e: (e["name"].casefold(), e["name"], e["object"]))
