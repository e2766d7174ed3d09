"""Group B's camelCase names, made from the snake_case ones its schemas declare (marshmallow's "Implementing
Camel-case keys")."""

from marshmallow import Schema, fields


class CamelCaseSchema(Schema):
    """A schema whose fields dump under the camelCase of their names: `offers_over_5_pct` as `offersOver5Pct`."""

    def on_bind_field(self, field_name: str, field_obj: fields.Field) -> None:
        head, *rest = (field_obj.data_key or field_name).split("_")
        field_obj.data_key = head + "".join(part.title() for part in rest)
