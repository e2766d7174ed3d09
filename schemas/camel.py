"""Group B's camelCase names, made from the snake_case ones its schemas declare (marshmallow's "Implementing
Camel-case keys")."""

from marshmallow import Schema, fields


def camelcase(name: str) -> str:
    """`offers_over_5_pct` → `offersOver5Pct`."""
    head, *rest = name.split("_")
    return head + "".join(part.title() for part in rest)


class CamelCaseSchema(Schema):
    """A schema whose fields dump under camelCase names."""

    def on_bind_field(self, field_name: str, field_obj: fields.Field) -> None:
        field_obj.data_key = camelcase(field_obj.data_key or field_name)
